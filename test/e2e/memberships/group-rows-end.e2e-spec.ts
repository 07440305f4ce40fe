import { GroupRowsEndWithMembership1796520000000 } from '../../../db/migrations/1796520000000-GroupRowsEndWithMembership';
import { parseEntityId } from '../../../src/common/ids/entity-id';
import { Actor } from '../../support/actors';
import { expectNotFound } from '../spaces/support';
import {
  addToGroup,
  bootSpaces,
  expectStatus,
  makePublic,
  newGroup,
  newSpace,
  person,
  SpacesTestApp,
} from './support';

type Ending = 'leave' | 'kick' | 'ban and unban';
type Rejoin = 'open join' | 'invite';

/**
 * Group memberships end with the space membership (leave, kick, ban, space
 * deletion) in the membership write's transaction, so a rejoin starts with no groups.
 * The attack on main: an admin kicks (or bans, then unbans) a member of a group; the member
 * rejoins through the open join or any invite and reads the group-only topic again, because the
 * group row had stayed.
 */
describe('group memberships end with the space membership (0104-group-rows-end-with-membership)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let space: { id: string; did: string };
  let crew: { id: string; did: string };
  let crewPost: string;

  const spaceUuid = () => parseEntityId('space', space.id)!;
  const groupRowsOf = async (did: string, spaceId = spaceUuid()): Promise<number> =>
    Number(
      (
        await t.dataSource.query(
          'SELECT count(*)::int AS n FROM group_memberships WHERE member_did = $1 AND space_id = $2',
          [did, spaceId],
        )
      )[0].n,
    );
  const readCrewPost = async (reader: Actor): Promise<string> => {
    const response = await reader.get(`/v1/spaces/${space.id}/posts/${crewPost}`);
    expectStatus(response, 200);
    const body = response.body as { state: string; reason?: string };
    return body.reason ? `${body.state}: ${body.reason}` : body.state;
  };
  const groupsOf = async (reader: Actor) => {
    const listing = await reader.get(`/v1/group-memberships?space=${space.id}`);
    expectStatus(listing, 200);
    const membership = await reader.get(`/v1/membership/${space.id}`);
    expectStatus(membership, 200);
    return {
      listed: listing.body.items.map((item: { group: { id: string } }) => item.group.id),
      totalCount: listing.body.totalCount as number,
      groupCount: membership.body.groupCount as number,
    };
  };
  const crewMemberCount = async (): Promise<number> => {
    const groups = await owner.get(`/spaces/${space.id}/groups`);
    expectStatus(groups, 200);
    return groups.body.items.find((group: { id: string }) => group.id === crew.id).memberCount;
  };

  const inviteCode = async (): Promise<string> => {
    const invite = await owner.post(`/spaces/${space.id}/my-invite`, {});
    expectStatus(invite, 201);
    return invite.body.inviteCode as string;
  };
  const join = async (member: Actor, how: Rejoin) => {
    const response =
      how === 'open join'
        ? await member.post(`/spaces/${space.id}/join`, {})
        : await member.post(`/spaces/join/${await inviteCode()}`, {});
    expectStatus(response, 200);
    expect(response.body.status).toBe('member');
  };
  const end = async (member: Actor, how: Ending) => {
    if (how === 'leave') expectStatus(await member.delete(`/spaces/${space.id}/membership`), 204);
    if (how === 'kick') expectStatus(await owner.delete(`/spaces/${space.id}/members/${member.did}`), 204);
    if (how === 'ban and unban') {
      expectStatus(await owner.post(`/spaces/${space.id}/members/${member.did}/bans`, {}), 200);
      expect(await groupRowsOf(member.did)).toBe(0);
      expectStatus(await owner.delete(`/spaces/${space.id}/bans/${member.did}`), 204);
    }
  };

  /** A member of the space in the crew group, who reads the crew's topic. */
  const crewMember = async (): Promise<Actor> => {
    const member = await person(t);
    await join(member, 'open join');
    await addToGroup(owner, space.id, crew.id, member);
    expect(await readCrewPost(member)).toBe('eligible');
    expect(await groupsOf(member)).toEqual({ listed: [crew.id], totalCount: 1, groupCount: 1 });
    return member;
  };

  beforeAll(async () => {
    t = await bootSpaces();
    owner = await person(t);
    space = await newSpace(owner, 'Crew space');
    await makePublic(owner, space.id, 'open');
    crew = await newGroup(owner, space.id, { name: 'Crew' });
    const topic = await owner.post(`/spaces/${space.id}/topics`, {
      name: 'Crew room',
      access: { groups: [crew.id] },
    });
    expectStatus(topic, 201);
    const post = await owner.post(`/v1/spaces/${space.id}/posts`, {
      topic: topic.body.id,
      body: 'crew only',
    });
    expectStatus(post, 201);
    crewPost = post.body.id as string;
  });

  afterAll(() => t?.close());

  const cases: [Ending, Rejoin][] = [
    ['leave', 'open join'],
    ['leave', 'invite'],
    ['kick', 'open join'],
    ['kick', 'invite'],
    ['ban and unban', 'open join'],
    ['ban and unban', 'invite'],
  ];

  it.each(cases)(
    'after %s, a rejoin through %s starts with no groups: the group-only post is gated again',
    async (ending, rejoin) => {
      const member = await crewMember();
      const before = await crewMemberCount();
      await end(member, ending);
      // Gone in the ending's own transaction, not only hidden by the reads.
      expect(await groupRowsOf(member.did)).toBe(0);
      expect(await crewMemberCount()).toBe(before - 1);
      await join(member, rejoin);
      expect(await readCrewPost(member)).toBe('gated: restricted');
      expect(await groupsOf(member)).toEqual({ listed: [], totalCount: 0, groupCount: 0 });
      expectNotFound(await member.get(`/v1/group-membership/${crew.id}`));
      expect(await crewMemberCount()).toBe(before - 1);
      // Back in the group only when an admin puts them there again.
      await addToGroup(owner, space.id, crew.id, member);
      expect(await readCrewPost(member)).toBe('eligible');
    },
  );

  it('after a kick, an approved application starts with no groups either', async () => {
    const applicationSpace = await newSpace(owner, 'Applied');
    await makePublic(owner, applicationSpace.id, 'application');
    const group = await newGroup(owner, applicationSpace.id, { name: 'Inner' });
    const member = await person(t);
    const invite = await owner.post(`/spaces/${applicationSpace.id}/my-invite`, {
      joinModeOverride: 'instant',
    });
    expectStatus(await member.post(`/spaces/join/${invite.body.inviteCode}`, {}), 200);
    await addToGroup(owner, applicationSpace.id, group.id, member);
    expectStatus(await owner.delete(`/spaces/${applicationSpace.id}/members/${member.did}`), 204);
    const applied = await member.post(`/spaces/${applicationSpace.id}/applications`, {});
    expectStatus(applied, 201);
    expectStatus(await owner.post(`/applications/${applied.body.applicationId}/approve`), 200);
    expectStatus(await member.get(`/v1/membership/${applicationSpace.id}`), 200);
    expect(await groupRowsOf(member.did, parseEntityId('space', applicationSpace.id)!)).toBe(0);
    expectNotFound(await member.get(`/v1/group-membership/${group.id}`));
  });

  it('a group row written while the membership ended is not carried into the next membership', async () => {
    // The group write checks the membership before its insert: a kick committing in between
    // leaves a row behind. Admission clears it.
    const member = await crewMember();
    expectStatus(await owner.delete(`/spaces/${space.id}/members/${member.did}`), 204);
    await t.dataSource.query(
      'INSERT INTO group_memberships (group_id, member_did, space_id, joined_at) VALUES ($1, $2, $3, now())',
      [parseEntityId('group', crew.id), member.did, spaceUuid()],
    );
    await join(member, 'open join');
    expect(await readCrewPost(member)).toBe('gated: restricted');
    expect(await groupRowsOf(member.did)).toBe(0);
  });

  it('deleting the space deletes every group membership of its groups', async () => {
    const doomed = await newSpace(owner, 'Doomed');
    await makePublic(owner, doomed.id, 'open');
    const [first, second] = await Promise.all([
      newGroup(owner, doomed.id, { name: 'One' }),
      newGroup(owner, doomed.id, { name: 'Two' }),
    ]);
    const member = await person(t);
    expectStatus(await member.post(`/spaces/${doomed.id}/join`, {}), 200);
    for (const group of [first, second]) {
      await addToGroup(owner, doomed.id, group.id, member);
      await addToGroup(owner, doomed.id, group.id, owner);
    }
    // Another space's group rows stay.
    const kept = await crewMember();
    const doomedRows = async () =>
      Number(
        (
          await t.dataSource.query('SELECT count(*)::int AS n FROM group_memberships WHERE space_id = $1', [
            parseEntityId('space', doomed.id),
          ])
        )[0].n,
      );
    expect(await doomedRows()).toBe(4);
    expectStatus(await owner.delete(`/spaces/${doomed.id}`), 204);
    expect(await doomedRows()).toBe(0);
    expect(await groupRowsOf(kept.did)).toBe(1);
  });

  describe('a membership write that fails keeps the groups (one transaction)', () => {
    let repairs: (() => Promise<void>)[] = [];
    /** PostgreSQL refuses the transaction after the group rows are deleted (AFTER DELETE trigger). */
    const failAfterGroupDelete = async () => {
      await t.dataSource.query(`
        CREATE FUNCTION test_fail_after_group_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'forced failure'; END $$;
        CREATE TRIGGER test_fail_after_group_delete AFTER DELETE ON group_memberships
          FOR EACH ROW EXECUTE FUNCTION test_fail_after_group_delete();`);
      repairs.push(() =>
        t.dataSource.query(
          'DROP TRIGGER test_fail_after_group_delete ON group_memberships; DROP FUNCTION test_fail_after_group_delete();',
        ),
      );
    };
    afterEach(async () => {
      for (const repair of repairs) await repair();
      repairs = [];
    });

    it.each<[string, (member: Actor) => Promise<unknown>]>([
      ['leave', (member) => member.delete(`/spaces/${space.id}/membership`)],
      ['kick', (member) => owner.delete(`/spaces/${space.id}/members/${member.did}`)],
      ['ban', (member) => owner.post(`/spaces/${space.id}/members/${member.did}/bans`, {})],
      ['space deletion', () => owner.delete(`/spaces/${space.id}`)],
    ])(
      'a %s that fails after deleting the group rows leaves membership and groups as they were',
      async (_, write) => {
        const member = await crewMember();
        const rows = await groupRowsOf(member.did);
        await failAfterGroupDelete();
        const failed = (await write(member)) as { status: number; body: unknown };
        expect(failed.status).toBe(500);
        expect(failed.body).toEqual({ code: 'E_INTERNAL', message: 'Internal error' });
        expect(await groupRowsOf(member.did)).toBe(rows);
        expect(await readCrewPost(member)).toBe('eligible');
        expect(await groupsOf(member)).toEqual({ listed: [crew.id], totalCount: 1, groupCount: 1 });
      },
    );
  });

  it('the migration deletes the group rows of people who are no longer active members (data kept by main)', async () => {
    const stayed = await crewMember();
    const left = await crewMember();
    const doomed = await newSpace(owner, 'Gone');
    const doomedGroup = await newGroup(owner, doomed.id, { name: 'Gone crew' });
    await addToGroup(owner, doomed.id, doomedGroup.id, owner);
    const crewUuid = parseEntityId('group', crew.id);
    // Rows as main left them: a member who left, the owner of a deleted space.
    expectStatus(await left.delete(`/spaces/${space.id}/membership`), 204);
    await t.dataSource.query(
      'INSERT INTO group_memberships (group_id, member_did, space_id, joined_at) VALUES ($1, $2, $3, now())',
      [crewUuid, left.did, spaceUuid()],
    );
    await t.dataSource.query('UPDATE spaces SET deleted_at = now() WHERE id = $1', [
      parseEntityId('space', doomed.id),
    ]);
    const runner = t.dataSource.createQueryRunner();
    try {
      await new GroupRowsEndWithMembership1796520000000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await groupRowsOf(left.did)).toBe(0);
    expect(await groupRowsOf(owner.did, parseEntityId('space', doomed.id)!)).toBe(0);
    expect(await groupRowsOf(stayed.did)).toBe(1);
    expect(await readCrewPost(stayed)).toBe('eligible');
  });
});
