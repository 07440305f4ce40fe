import { parseEntityId } from '../../../src/common/ids/entity-id';
import { JoinAnnouncementsSubscriber as JoinAnnouncements } from '../../../src/notifications/events/join-announcements.subscriber';
import { PEOPLE_KEPT } from '../../../src/notifications/notifications.repository';
import { naming, statementsDuring } from '../../support/statements';
import { bootSpaces, Caller, expectStatus, publicSpace, SpacesTestApp } from '../spaces/support';
import { followJoins } from './join-announcements';

interface Aggregated {
  type: string;
  readState: string;
  scope: { preview: { id: string; title: string } };
  aggregation: { type: string; items: { did: string }[]; totalCount: number } | null;
}

/** `count` active members more in the space (DIDs without chains: only recipients), counted. */
async function topUp(t: SpacesTestApp, spaceId: string, count: number, label: string): Promise<void> {
  const uuid = parseEntityId('space', spaceId);
  await t.dataSource.query(
    `INSERT INTO space_memberships (space_id, member_did, role, status, joined_at, created_at, updated_at)
     SELECT $1::uuid, 'did:plat:' || $3 || k, 'member', 'active', now(), now(), now()
       FROM generate_series(1, $2::int) AS k`,
    [uuid, count, label],
  );
  await t.dataSource.query(
    `UPDATE spaces SET member_count =
       (SELECT count(*) FROM space_memberships WHERE space_id = $1 AND status = 'active') WHERE id = $1`,
    [uuid],
  );
}

const memberCount = async (t: SpacesTestApp, spaceId: string): Promise<number> =>
  Number(
    (
      await t.dataSource.query('SELECT member_count AS n FROM spaces WHERE id = $1', [
        parseEntityId('space', spaceId),
      ])
    )[0].n,
  );

/**
 * Joins are told to the space by a background job (docs/decisions/0109-join-announcements-as-a-job.md).
 * The attack: joining a big space made the joining request load every active member
 * and upsert one notification each before it answered (and recount the members), so one join
 * cost grew with the space. Here the join's statements are counted in a 5-member space and in a
 * 305-member one: the same statements, none about notifications or the member list.
 */
describe('a join costs the same statements whatever the space size (0109-join-announcements-as-a-job)', () => {
  let t: SpacesTestApp;

  beforeAll(async () => {
    // The join's fan-out job waits an hour, out of the counted window (it runs in the request's scope).
    t = await bootSpaces({ env: { NOTIFY_ANNOUNCE_DELAY_MS: String(3600_000) } });
  });

  afterAll(() => t?.close());

  async function joinStatements(members: number): Promise<string[]> {
    const owner = t.caller();
    const id = await publicSpace(owner, 'open');
    for (let n = 0; n < 4; n++) expectStatus(await t.caller().post(`/spaces/${id}/join`), 200);
    if (members > 5) await topUp(t, id, members - 5, `big${members}x`);
    expect(await memberCount(t, id)).toBe(members);
    const joiner = t.caller();
    await joiner.get('/notifications'); // the joiner's identity is published and cached first
    const statements = await statementsDuring(async () => {
      expectStatus(await joiner.post(`/spaces/${id}/join`), 200);
    });
    expect(await memberCount(t, id)).toBe(members + 1);
    return statements;
  }

  it('joining a 5-member and a 305-member space: the same statements, no notification written in the request', async () => {
    const small = await joinStatements(5);
    const big = await joinStatements(305);
    expect(small.length).toBeGreaterThan(3); // the join's own: proof, space, lock, membership, count
    expect(big).toEqual(small);
    for (const statements of [small, big]) {
      // Nobody is told inside the join: no notification, no walk over the members.
      expect(naming(statements, 'notifications')).toEqual([]);
      expect(naming(statements, 'active_space_members')).toEqual([]);
      // Nor a recount of the members: the join counts its one member up.
      expect(
        naming(statements, 'space_memberships').filter((statement) => /count\(/i.test(statement)),
      ).toEqual([]);
      // The announcement is recorded with the join, in its transaction (the job outbox: 0125-no-background-work-lost),
      // and so is the webhook fan-out (0162-webhook-delivery-state-in-postgresql).
      expect(naming(statements, 'job_outbox')).toHaveLength(2);
    }
  });
});

/**
 * The join's fan-out job (notifications.announce-join on NotificationFanouts): every other active
 * member is told once, a retried job tells no one twice and counts no one twice, and an aggregated
 * join notification names at most PEOPLE_KEPT people while its count stays exact.
 */
describe('notify.member.joined as a background job (0109-join-announcements-as-a-job)', () => {
  let t: SpacesTestApp;
  let joins: { settled(): Promise<void> };

  beforeAll(async () => {
    t = await bootSpaces();
    joins = followJoins(t.app, t.dataSource);
  });

  afterAll(() => t?.close());

  const tick = () => {
    t.clock.offsetMs += 1000;
  };

  async function unreadJoined(caller: Caller): Promise<Aggregated[]> {
    await joins.settled();
    const response = await caller.get('/notifications');
    expectStatus(response, 200);
    return (response.body.items as Aggregated[]).filter(
      (item) => item.readState === 'unread' && item.type === 'notify.member.joined',
    );
  }

  /** The stored join notifications of the space: recipient, people kept and count. */
  const stored = async (spaceId: string) =>
    (await t.dataSource.query(
      `SELECT recipient_did, jsonb_array_length(people) AS kept, item_count FROM notifications
        WHERE space_id = $1 AND type = 'notify.member.joined' AND read_state = 'unread' ORDER BY recipient_did`,
      [parseEntityId('space', spaceId)],
    )) as { recipient_did: string; kept: number; item_count: number }[];

  /** The time the join of `did` was announced at (its fan-out key ends with it). */
  async function joinedAt(spaceId: string, did: string): Promise<Date> {
    const prefix = `notify.member.joined:${parseEntityId('space', spaceId)}:${did}:`;
    const [row] = (await t.dataSource.query(
      `SELECT key FROM notification_fanouts WHERE starts_with(key, $1) ORDER BY created_at DESC LIMIT 1`,
      [prefix],
    )) as { key: string }[];
    return new Date(row.key.slice(prefix.length));
  }

  it('tells every other active member once, in batches of 1,000, after the join answered', async () => {
    const owner = t.caller();
    const id = await publicSpace(owner, 'open');
    await topUp(t, id, 1200, 'batch');
    const joiner = t.caller();
    expectStatus(await joiner.post(`/spaces/${id}/join`), 200);
    await joins.settled();
    const rows = await stored(id);
    expect(rows).toHaveLength(1201); // the owner and the 1,200, not the joiner
    expect(rows.map((row) => row.recipient_did)).not.toContain(joiner.did);
    expect(rows.every((row) => row.item_count === 1 && row.kept === 1)).toBe(true);
    const [item] = await unreadJoined(owner);
    expect(item.scope.preview.id).toBe(joiner.did);
    expect(item.aggregation).toBeNull();
  });

  it('a retried job neither duplicates nor double-counts: a finished one does nothing, a half-done one resumes', async () => {
    const owner = t.caller();
    const id = await publicSpace(owner, 'open');
    const members = [t.caller(), t.caller(), t.caller()];
    for (const member of members) expectStatus(await member.post(`/spaces/${id}/join`), 200);
    tick();
    const joiner = t.caller();
    expectStatus(await joiner.post(`/spaces/${id}/join`), 200);
    await joins.settled();
    const before = await stored(id);
    const at = await joinedAt(id, joiner.did!);
    const space = parseEntityId('space', id)!;

    await t.app.get(JoinAnnouncements).announce(space, joiner.did!, at);
    expect(await stored(id)).toEqual(before);

    // As if the first attempt had told the first recipient and failed before the rest: the
    // others' count of this join is taken back, and the progress stops after the first.
    const recipients = before.map((row) => row.recipient_did);
    await t.dataSource.query(
      `UPDATE notifications SET item_count = item_count - 1, people = people - 0
        WHERE space_id = $1 AND type = 'notify.member.joined' AND recipient_did > $2`,
      [space, recipients[0]],
    );
    await t.dataSource.query(
      `UPDATE notification_fanouts SET after_did = $2, done_at = NULL WHERE key = $1`,
      [`notify.member.joined:${space}:${joiner.did}:${at.toISOString()}`, recipients[0]],
    );
    await t.app.get(JoinAnnouncements).announce(space, joiner.did!, at);
    expect(await stored(id)).toEqual(before);
    for (const recipient of [owner, ...members]) {
      const [item] = await unreadJoined(recipient);
      expect(item.scope.preview.id).toBe(joiner.did);
    }
  });

  it(`attack: a join/leave loop of fresh identities names at most ${PEOPLE_KEPT} people (5 shown); the count stays exact`, async () => {
    const owner = t.caller();
    const id = await publicSpace(owner, 'open');
    const loopers = Array.from({ length: PEOPLE_KEPT + 10 }, () => t.caller());
    for (const looper of loopers) {
      tick();
      expectStatus(await looper.post(`/spaces/${id}/join`), 200);
      expectStatus(await looper.delete(`/spaces/${id}/membership`), 204);
    }
    // The last joins may still be told by their job: read the rows once every join is announced.
    await joins.settled();
    const [row] = await stored(id);
    expect(row.kept).toBe(PEOPLE_KEPT);
    expect(row.item_count).toBe(loopers.length);
    const [item] = await unreadJoined(owner);
    expect(item.aggregation).toEqual({
      type: 'identity',
      totalCount: loopers.length,
      items: loopers
        .slice(-5)
        .reverse()
        .map((looper) => ({ did: looper.did, displayName: null })),
    });

    // The same identity looping again is one person: still counted once.
    const again = loopers.at(-1)!;
    for (let n = 0; n < 3; n++) {
      tick();
      expectStatus(await again.post(`/spaces/${id}/join`), 200);
      expectStatus(await again.delete(`/spaces/${id}/membership`), 204);
    }
    const [after] = await unreadJoined(owner);
    expect(after.aggregation!.totalCount).toBe(loopers.length);
    expect((await stored(id))[0].kept).toBe(PEOPLE_KEPT);
  });
});
