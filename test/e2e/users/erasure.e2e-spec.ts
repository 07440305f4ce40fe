import request from 'supertest';
import { AccountErasuresService } from '../../../src/account-erasure';
import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { CapturedLog, LogLine } from '../../support/log-capture';
import { legacyImage, pngBytes, spaceUpload } from '../../support/media-uploads';
import { bootMedia, MediaTestApp, storedOf, uuidOf } from '../media/support';
import { addToGroup, admit, makePublic, newGroup, newSpace, person } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { expectInvalid, expectNotFound, expectStatus } from '../spaces/support';

const DAY_MS = 86_400_000;

/**
 * Erasure on request (issue 35 item 2; docs/decisions/0195-erasure-scheduled-by-the-users-module.md):
 * DELETE /profile schedules it after the grace period, the account is deactivated meanwhile,
 * POST /profile/restore cancels.
 */
describe('erasure on request (e2e)', () => {
  let t: MediaTestApp;
  const log = new CapturedLog();
  /** The audit lines of erasures (docs/decisions/0194-erasure-audit-lines-and-rate-limits.md). */
  const audits = (kind: string): LogLine[] => log.lines().filter((line) => line.audit === kind);
  /** Nothing of the person's profile or identity in an audit line: only the account id and counts. */
  const expectBare = (line: LogLine) => {
    for (const text of [
      alice.did,
      'erase-alice',
      'Alice',
      'Makes things',
      'alice@example.com',
      'alice.example',
    ]) {
      expect(JSON.stringify(line)).not.toContain(text);
    }
  };
  let owner: Actor;
  let alice: Actor;
  let spaceId: string;
  let bannedSpaceId: string;
  let alicePostId: string;
  let ownerPostId: string;
  let aliceCommentId: string;
  let aliceUserId: string;
  let aliceIdentityId: string;
  let app: Actor;
  let credential: string;
  /** Alice's uploads: her avatar and an attachment (erased), a space avatar she set as an admin (kept). */
  let avatarId: string;
  let attachmentId: string;
  let spaceAvatarId: string;

  beforeAll(async () => {
    t = await bootMedia({ env: { LOG_LEVEL: 'info' }, override: log.install });
    [owner, alice, app] = await Promise.all([person(t), person(t), person(t)]);
    expectStatus(await owner.signUp('erase-owner', 'Owner'), 201);
    const account = await alice.signUp('erase-alice', 'Alice');
    expectStatus(account, 201);
    aliceIdentityId = account.body.id as string;
    credential = alice.grant(app, ['read:profile']);
    aliceUserId = (
      (await t.dataSource.query('SELECT id FROM users WHERE did = $1', [alice.did])) as { id: string }[]
    )[0].id;
    avatarId = await legacyImage(t, alice, 'me.png');
    expectStatus(
      await alice.patch('/profile', {
        avatarId,
        isPublic: true,
        bio: 'Makes things',
        links: [{ url: 'https://alice.example/', label: 'Site' }],
        email: 'alice@example.com',
      }),
      200,
    );
    spaceId = (await newSpace(owner, 'Erasure')).id;
    await makePublic(owner, spaceId);
    await admit(owner, spaceId, alice);
    const group = await newGroup(owner, spaceId);
    await addToGroup(owner, spaceId, group.id, alice);
    expectStatus(await alice.put('/profile/pins', { spaceIds: [spaceId] }), 200);
    // As an admin, alice creates an invite and sets the space's avatar to an image of hers.
    expectStatus(await owner.put(`/spaces/${spaceId}/members/${alice.did}`, { role: 'admin' }), 200);
    expectStatus(await alice.post(`/spaces/${spaceId}/my-invite`, {}), 201);
    spaceAvatarId = await legacyImage(t, alice, 'space.png');
    expectStatus(await alice.put(`/spaces/${spaceId}`, { avatarId: spaceAvatarId }), 200);
    attachmentId = await spaceUpload(t, alice, spaceId, {
      filename: 'photo.png',
      contentType: 'image/png',
      bytes: await pngBytes(),
    });
    const topic = await newTopic(owner, spaceId, 'Open', 'public');
    alicePostId = (
      await newPost(alice, spaceId, {
        topic,
        title: 'Alice writes',
        body: 'secret words of alice',
        attachments: [attachmentId],
      })
    ).id;
    ownerPostId = (await newPost(owner, spaceId, { topic, body: 'hello from the owner' })).id;
    const comment = await alice.post(`/v1/spaces/${spaceId}/posts/${ownerPostId}/comments`, {
      body: 'alice comments here',
    });
    expectStatus(comment, 201);
    aliceCommentId = comment.body.id as string;
    expectStatus(
      await owner.post(`/v1/spaces/${spaceId}/posts/${ownerPostId}/comments`, {
        body: 'a reply to alice',
        parentCommentId: aliceCommentId,
      }),
      201,
    );
    expectStatus(
      await owner.post(`/v1/spaces/${spaceId}/posts/${alicePostId}/comments`, { body: 'nice' }),
      201,
    );
    expectStatus(await alice.put(`/v1/spaces/${spaceId}/posts/${ownerPostId}/upvote`, {}), 200);
    // The owner was told of alice's comment: a notification that names her.
    expect((await owner.get('/notifications')).text).toContain(alice.did);
    const applying = (await newSpace(owner, 'Applications')).id;
    await makePublic(owner, applying, 'application');
    expectStatus(await alice.post(`/spaces/${applying}/applications`, { responses: [] }), 201);
    expectStatus(
      await owner.post(`/spaces/${spaceId}/pages`, {
        title: 'Credits',
        slug: 'credits',
        body: `Thanks [@alice](mention:${aliceIdentityId}).`,
      }),
      201,
    );
    // An import of hers that failed: its row names her (docs/decisions/0237).
    const imported = await request(t.http)
      .post('/v1/spaces/imports')
      .set(alice.headers('POST', '/v1/spaces/imports'))
      .set('Content-Type', 'application/zip')
      .send(Buffer.from('not a zip'));
    expectStatus(imported, 202);
    await eventually(
      () => alice.get(`/v1/spaces/imports/${imported.body.id as string}`),
      (response) => response.body.state === 'failed',
      30_000,
    );
    bannedSpaceId = (await newSpace(owner, 'Banned here')).id;
    expectStatus(await owner.post(`/spaces/${bannedSpaceId}/members/${alice.did}/bans`, {}), 200);
    await makePublic(owner, bannedSpaceId);
    expectStatus(await alice.post(`/spaces/${bannedSpaceId}/join`), 403);
  });

  afterAll(() => t?.close());

  const dueAt = async (did: string) =>
    (
      (await t.dataSource.query('SELECT erasure_due_at FROM users WHERE did = $1', [did])) as {
        erasure_due_at: Date | null;
      }[]
    )[0]?.erasure_due_at ?? null;

  it('refuses a confirmation that is not the caller’s handle, and stores nothing', async () => {
    for (const body of [{ confirmHandle: 'erase-owner' }, { confirmHandle: '' }, {}, { confirmHandle: 7 }]) {
      const answer = await alice.send('DELETE', '/profile', body);
      expectInvalid(answer);
    }
    expect(await dueAt(alice.did)).toBeNull();
    expectStatus(await t.anonymous.get('/v1/users/erase-alice'), 200);
  });

  it('refuses the owner of a space (409), and stores nothing', async () => {
    expectStatus(await owner.send('DELETE', '/profile', { confirmHandle: 'erase-owner' }), 409);
    expect(await dueAt(owner.did)).toBeNull();
  });

  it('schedules the erasure after the grace period; the account is deactivated meanwhile; restore cancels', async () => {
    const answer = await alice.send('DELETE', '/profile', { confirmHandle: 'Erase-Alice' });
    expectStatus(answer, 202);
    const scheduled = new Date(answer.body.erasureScheduledAt as string);
    expect(scheduled.getTime() - t.clock.now().getTime()).toBeGreaterThan(30 * DAY_MS - 60_000);
    expect(scheduled.getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(30 * DAY_MS);
    expect((await dueAt(alice.did))?.toISOString()).toBe(scheduled.toISOString());
    const [audit] = audits('account.erasure.scheduled');
    expect(audit).toMatchObject({
      msg: 'account erasure scheduled',
      account: aliceUserId,
      dueAt: scheduled.toISOString(),
    });
    expect(Math.abs(Date.parse(audit.at as string) - t.clock.now().getTime())).toBeLessThan(60_000);
    expectBare(audit);

    expectNotFound(await t.anonymous.get('/v1/users/erase-alice'));
    expectNotFound(await t.anonymous.get(`/v1/users/${alice.did}`));
    expectNotFound(await t.anonymous.get(`/v1/users/${aliceIdentityId}`));
    expect((await t.anonymous.get('/v1/users')).text).not.toContain(alice.did);
    expect((await owner.get(`/spaces/${spaceId}/members`)).text).not.toContain(alice.did);
    // As a delete deactivates (docs/decisions/0191-a-pending-erasure-deactivates-as-a-delete.md): a
    // post's author null, a comment's only its DID, a mention plain text, credentials refused.
    const card = (await t.anonymous.get(`/v1/spaces/${spaceId}/posts`)).body.items.find(
      (item: { id: string }) => item.id === alicePostId,
    ) as { author: unknown };
    expect(card.author).toBeNull();
    expect((await t.anonymous.get(`/v1/spaces/${spaceId}/posts/${alicePostId}`)).body.post.author).toBeNull();
    const thread = await owner.get(`/v1/spaces/${spaceId}/posts/${ownerPostId}/comments`);
    expect((thread.body.items as { author: unknown }[])[0].author).toEqual({ did: alice.did });
    expect(thread.text).not.toContain('erase-alice');
    expect((await t.anonymous.get(`/v1/spaces/${spaceId}/pages/credits`)).body.body).toBe('Thanks @alice.');
    const refused = await app.get('/v1/profile', { credential });
    expect(refused.status).toBe(403);
    // Its own proofs still verify where leaving needs them: it sees its profile, and may cancel
    // (the rest: erasure-pending-proofs.e2e-spec.ts).
    expectStatus(await alice.get('/v1/profile'), 200);

    expectStatus(await alice.post('/profile/restore', {}), 204);
    expect(await dueAt(alice.did)).toBeNull();
    const [cancelled] = audits('account.erasure.cancelled');
    expect(cancelled).toMatchObject({ msg: 'account erasure cancelled', account: aliceUserId });
    expect(Date.parse(cancelled.at as string)).toBeLessThanOrEqual(t.clock.now().getTime());
    expectBare(cancelled);
    expectStatus(await t.anonymous.get('/v1/users/erase-alice'), 200);
    expect((await owner.get(`/spaces/${spaceId}/members`)).text).toContain(alice.did);
    expectStatus(await app.get('/v1/profile', { credential }), 200);
    expect((await t.anonymous.get(`/v1/spaces/${spaceId}/pages/credits`)).body.body).toBe(
      `Thanks [@alice](mention:${aliceIdentityId}).`,
    );
    // Nothing left to cancel.
    expectStatus(await alice.post('/profile/restore', {}), 409);
  });

  const erasures = () => t.app.get(AccountErasuresService);
  const scalar = async (sql: string, parameters: unknown[] = []) =>
    ((await t.dataSource.query(sql, parameters)) as Record<string, unknown>[])[0];

  it('a failure mid-erasure rolls the person back whole; the next sweep completes it', async () => {
    expectStatus(await alice.send('DELETE', '/profile', { confirmHandle: 'erase-alice' }), 202);
    // Not due yet: nothing happens.
    expect(await erasures().sweep()).toEqual({ erased: 0, failed: 0 });
    t.clock.offsetMs += 31 * DAY_MS;
    await t.dataSource.query(
      "CREATE FUNCTION erasure_fault() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'forced'; END $$",
    );
    await t.dataSource.query(
      'CREATE TRIGGER erasure_fault BEFORE DELETE ON key_proof_ceremonies FOR EACH STATEMENT EXECUTE FUNCTION erasure_fault()',
    );
    expect(await erasures().sweep()).toEqual({ erased: 0, failed: 1 });
    // Rolled back: the memberships, the post and the account are all there still.
    expect(
      await scalar('SELECT count(*)::int AS n FROM space_memberships WHERE member_did = $1', [alice.did]),
    ).toEqual({ n: 2 });
    expect(
      await scalar('SELECT body, deleted_at FROM posts WHERE id = $1', [alicePostId.replace(/^post_/, '')]),
    ).toBeDefined();
    expect(await scalar('SELECT handle FROM users WHERE did = $1', [alice.did])).toEqual({
      handle: 'erase-alice',
    });
    // No media row nor file went: files go only after a commit.
    expect(await scalar('SELECT count(*)::int AS n FROM media WHERE uploader_did = $1', [alice.did])).toEqual(
      { n: 3 },
    );
    expect(
      await scalar('SELECT count(*)::int AS n FROM space_invites WHERE creator_did = $1', [alice.did]),
    ).toEqual({ n: 1 });
    for (const id of [avatarId, attachmentId, spaceAvatarId]) expect(await storedOf(t, id)).not.toEqual([]);
    await t.dataSource.query('DROP TRIGGER erasure_fault ON key_proof_ceremonies');
    await t.dataSource.query('DROP FUNCTION erasure_fault()');

    // The failed run logged no erasure.
    expect(audits('account.erasure.done')).toEqual([]);
    expect(await erasures().sweep()).toEqual({ erased: 1, failed: 0 });
    expect(await scalar('SELECT count(*)::int AS n FROM users WHERE did = $1', [alice.did])).toEqual({
      n: 0,
    });
    // One audit line: the account, when, and the rows deleted or anonymized per table.
    const done = audits('account.erasure.done');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ msg: 'account erased', account: aliceUserId });
    expect(Math.abs(Date.parse(done[0].at as string) - t.clock.now().getTime())).toBeLessThan(60_000);
    expect(done[0].tables).toEqual(ERASED_TABLES);
    expectBare(done[0]);
  });

  it('erases the media nothing else names, rows then files after the commit; keeps the space’s avatar without its uploader', async () => {
    // The avatar and the attachment: rows gone at once, files deleted by the job after the commit.
    const ids = await t.dataSource.query('SELECT id FROM media WHERE id = ANY($1::uuid[])', [
      [avatarId, attachmentId].map(uuidOf),
    ]);
    expect(ids).toEqual([]);
    for (const id of [avatarId, attachmentId]) {
      await eventually(
        () => storedOf(t, id),
        (files) => files.length === 0,
      );
    }
    // The space's avatar, which alice set as an admin: the space's, kept and served, naming nobody.
    expect(await scalar('SELECT uploader_did FROM media WHERE id = $1', [uuidOf(spaceAvatarId)])).toEqual({
      uploader_did: 'plat:erased',
    });
    expect(await storedOf(t, spaceAvatarId)).not.toEqual([]);
    // Her invite is gone: its link admits nobody any more.
    expect(
      await scalar('SELECT count(*)::int AS n FROM space_invites WHERE creator_did = $1', [alice.did]),
    ).toEqual({ n: 0 });
  });

  it('after the erasure, reads show nothing of the person: posts gone, comments tombstones, counts kept right', async () => {
    expectNotFound(await t.anonymous.get('/v1/users/erase-alice'));
    expectNotFound(await t.anonymous.get(`/v1/spaces/${spaceId}/posts/${alicePostId}`));
    const listing = await t.anonymous.get(`/v1/spaces/${spaceId}/posts`);
    expectStatus(listing, 200);
    expect(listing.text).not.toContain(alicePostId);
    expect(listing.text).not.toContain('secret words');
    const comments = await owner.get(`/v1/spaces/${spaceId}/posts/${ownerPostId}/comments`);
    expectStatus(comments, 200);
    expect(comments.text).not.toContain('alice comments here');
    // The thread keeps its reply under a tombstone: no body, the author as the contract's `{did}`.
    const [tombstone] = comments.body.items as Record<string, unknown>[];
    expect(tombstone).toMatchObject({
      id: aliceCommentId,
      author: { did: alice.did },
      body: null,
      attachments: [],
      replyCount: 1,
    });
    const replies = await owner.get(
      `/v1/spaces/${spaceId}/posts/${ownerPostId}/comments?parentCommentId=${aliceCommentId}`,
    );
    expectStatus(replies, 200);
    expect(replies.text).toContain('a reply to alice');
    const space = await owner.get(`/spaces/${spaceId}/members`);
    expect(space.text).not.toContain(alice.did);
    const ownerPost = await t.anonymous.get(`/v1/spaces/${spaceId}/posts/${ownerPostId}`);
    expectStatus(ownerPost, 200);
    expect(ownerPost.text).not.toContain(alice.did);
    // Their upvote gone with its count; their comment counted out (the owner's reply is live).
    expect(
      await scalar("SELECT upvote_count, comment_count FROM posts WHERE body = 'hello from the owner'"),
    ).toEqual({ upvote_count: 0, comment_count: 1 });
    const notifications = await owner.get('/notifications');
    expectStatus(notifications, 200);
    expect(notifications.text).not.toContain(alice.did);
  });

  it('every table of the schema keeps only what the decision keeps of the person', async () => {
    const tables = (await t.dataSource.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
    )) as { table_name: string }[];
    expect(tables.length).toBeGreaterThan(30);
    const remains: Record<string, number> = {};
    for (const { table_name: table } of tables) {
      // Any column naming the person: their DID, their account id or their handle.
      const row = await scalar(
        `SELECT count(*)::int AS n FROM "${table}" r WHERE strpos(row_to_json(r)::text, $1) > 0 ` +
          'OR strpos(row_to_json(r)::text, $2) > 0 OR strpos(row_to_json(r)::text, $3) > 0',
        [alice.did, aliceUserId, 'erase-alice'],
      );
      if ((row.n as number) > 0) remains[table] = row.n as number;
    }
    // Replay entries hold a proof's signer until the proof's window ends, minutes at most.
    const replays = remains.replay_jtis ?? 0;
    delete remains.replay_jtis;
    if (replays > 0) {
      expect(
        await scalar(
          "SELECT count(*)::int AS n FROM replay_jtis WHERE strpos(row_to_json(replay_jtis)::text, $1) > 0 AND expires_at > now() + interval '1 hour'",
          [alice.did],
        ),
      ).toEqual({ n: 0 });
    }
    expect(remains).toEqual(KEPT);
    // What is kept holds nothing the person wrote.
    expect(
      await scalar(
        'SELECT title, body, excerpt, display_title, attachment_ids FROM posts WHERE author_did = $1',
        [alice.did],
      ),
    ).toEqual({ title: null, body: '', excerpt: null, display_title: null, attachment_ids: [] });
    // The ban, as a keyed hash of the DID only (docs/decisions/0193-bans-of-erased-people-kept-as-keyed-hashes.md).
    const [ban] = (await t.dataSource.query('SELECT space_id, did_hash FROM space_erased_bans')) as {
      space_id: string;
      did_hash: string;
    }[];
    expect(ban.did_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await owner.get(`/spaces/${bannedSpaceId}/bans`)).text).not.toContain(alice.did);
  });

  it('a ban outlives the erasure: the same DID is refused joining and applying; an unban by the DID lifts it', async () => {
    const join = await alice.post(`/spaces/${bannedSpaceId}/join`);
    expectStatus(join, 403);
    expect(
      await scalar('SELECT count(*)::int AS n FROM space_memberships WHERE member_did = $1', [alice.did]),
    ).toEqual({ n: 0 });
    await makePublic(owner, bannedSpaceId, 'application');
    expectStatus(await alice.post(`/spaces/${bannedSpaceId}/applications`, { responses: [] }), 403);
    await makePublic(owner, bannedSpaceId);
    // Another space, without a ban: the DID joins as anyone would.
    expectStatus(await alice.post(`/spaces/${spaceId}/join`), 200);
    expectStatus(await owner.send('DELETE', `/spaces/${bannedSpaceId}/bans/${alice.did}`), 204);
    expect(await scalar('SELECT count(*)::int AS n FROM space_erased_bans')).toEqual({ n: 0 });
    expectStatus(await alice.post(`/spaces/${bannedSpaceId}/join`), 200);
  });

  it('an erasure run again does nothing', async () => {
    const before = await scalar('SELECT count(*)::int AS n FROM comments WHERE deleted_at IS NOT NULL');
    expect(await erasures().sweep()).toEqual({ erased: 0, failed: 0 });
    expect(await scalar('SELECT count(*)::int AS n FROM comments WHERE deleted_at IS NOT NULL')).toEqual(
      before,
    );
  });

  it('the handle is free for a new sign-up', async () => {
    const newcomer = await person(t);
    expectStatus(await newcomer.signUp('erase-alice', 'Someone else'), 201);
  });
});

/**
 * What remains of an erased person, table by table, and why
 * (docs/decisions/0196-what-an-erasure-removes-and-keeps.md). A new table that names them fails here.
 */
const KEPT: Record<string, number> = {
  // Their comment, a tombstone under which the thread's reply stays (author `{did}` by the contract).
  comments: 1,
  // Their post, deleted (the constant 404) without title, body, card text, slug or attachments.
  posts: 1,
  // The relay's operation logs, kept for verification: the identity chain and its operation.
  relay_identity_chains: 1,
  relay_operations: 1,
};

/** The rows the erasure of the test's person deleted or anonymized, by table (its audit line). */
const ERASED_TABLES: Record<string, number> = {
  comment_upvotes: 0,
  // She asked for no export (test/e2e/exports shows an erasure taking them).
  exports: 0,
  // Her failed import (docs/decisions/0237).
  imports: 1,
  // Her comment, a tombstone now.
  comments: 1,
  group_memberships: 1,
  idempotency_keys: 0,
  key_proof_ceremonies: 0,
  // Her avatar and attachment deleted, the space's avatar she set kept without her.
  media: 3,
  notification_fanouts: 2,
  notifications: 9,
  post_upvotes: 1,
  posts: 1,
  space_applications: 1,
  // The ban she got, as a hash.
  space_erased_bans: 1,
  space_invites: 1,
  // Her membership and the ban row (moved to space_erased_bans).
  space_memberships: 2,
  user_space_pins: 1,
  users: 1,
};
