import { Actor } from '../../support/actors';
import { naming, statementsDuring } from '../../support/statements';
import {
  admit,
  bootSpaces,
  comment,
  expectStatus,
  insertPost,
  makePublic,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

describe('the statements of a comment create and an upvote (0093-writes-resolve-the-space-and-the-writers-membership-in-one)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let space: string;
  let postId: string;

  beforeAll(async () => {
    // The post author's notification runs after the answer; it stays out of the count.
    t = await bootSpaces({ env: { NOTIFY_ANNOUNCE_DELAY_MS: String(3600_000) } });
    [owner, member] = await Promise.all([person(t), person(t)]);
    space = (await newSpace(owner)).id;
    await makePublic(owner, space);
    await admit(owner, space, member);
    postId = await insertPost(t, space, await newTopic(owner, space, 'members'), owner.did);
  });

  afterAll(() => t?.close());

  it('reads the space with the writer’s membership in one statement, and no upvotes of the new comment', async () => {
    let created: { viewer: { upvoted: boolean } } | undefined;
    const statements = await statementsDuring(async () => {
      created = await comment(member, space, postId, { body: 'Counted' });
    });
    expect(created?.viewer).toEqual({ upvoted: false });
    const memberships = naming(statements, 'space_memberships');
    expect(memberships).toHaveLength(1);
    expect(memberships[0]).toMatch(/\bFROM spaces s\b/);
    expect(naming(statements, 'comment_upvotes')).toHaveLength(0);
  });

  it('an upvote reads the space with the writer’s membership in one statement too', async () => {
    const statements = await statementsDuring(async () => {
      expectStatus(await member.put(`/v1/spaces/${space}/posts/${postId}/upvote`), 200);
    });
    const memberships = naming(statements, 'space_memberships');
    expect(memberships).toHaveLength(1);
    expect(memberships[0]).toMatch(/\bFROM spaces s\b/);
  });

  it('a stranger’s comment is still refused with 403, nothing written', async () => {
    const stranger = await person(t);
    const response = await stranger.post(`/v1/spaces/${space}/posts/${postId}/comments`, { body: 'No' });
    expectStatus(response, 403);
    const rows = await t.dataSource.query('SELECT count(*)::int AS n FROM comments WHERE author_did = $1', [
      stranger.did,
    ]);
    expect(rows[0].n).toBe(0);
  });
});
