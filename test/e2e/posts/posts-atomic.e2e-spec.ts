import { Actor } from '../../support/actors';
import { refuseWrites } from '../../support/faults';
import {
  admit,
  bootSpaces,
  expectStatus,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

/**
 * A post write and the space's last activity are one transaction: when the activity update fails,
 * no post is stored (or changed) and the request's `jti` stays usable. The fault is real: a
 * trigger makes PostgreSQL refuse the update of the space.
 */
describe('post writes are atomic (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let space: { id: string; did: string };
  let topic: string;

  const breakActivity = () => refuseWrites(t.dataSource, 'spaces', 'UPDATE OF last_activity_at');
  const postRows = async () =>
    Number((await t.dataSource.query('SELECT count(*)::int AS n FROM posts'))[0].n);

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member] = await Promise.all([person(t), person(t)]);
    space = await newSpace(owner, 'Atomic');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    topic = await newTopic(owner, space.id, 'General', 'public');
  });

  afterAll(() => t?.close());

  it('a post whose space activity fails is not stored, and its jti stays usable', async () => {
    const rows = await postRows();
    const jti = 'atomic-post-jti-000001';
    const path = `/v1/spaces/${space.id}/posts`;
    const repairActivity = await breakActivity();
    try {
      const failed = await member.post(path, { topic, body: 'hello' }, { jti });
      expectStatus(failed, 500);
      expect(failed.body).toEqual({ code: 'E_INTERNAL', message: 'Internal error' });
    } finally {
      await repairActivity();
    }
    expect(await postRows()).toBe(rows);
    expectStatus(await member.post(path, { topic, body: 'hello' }, { jti }), 201);
    expect(await postRows()).toBe(rows + 1);
  });

  it('an edit whose space activity fails leaves the post as it was', async () => {
    const { id } = await newPost(member, space.id, { topic, body: 'before' });
    const path = `/v1/spaces/${space.id}/posts/${id}`;
    const repairActivity = await breakActivity();
    try {
      expectStatus(await member.patch(path, { body: 'after' }), 500);
    } finally {
      await repairActivity();
    }
    const read = await member.get(path);
    expectStatus(read, 200);
    expect(JSON.stringify(read.body)).toContain('before');
    expect(JSON.stringify(read.body)).not.toContain('after');
  });
});
