import request from 'supertest';
import { Actor } from '../../support/actors';
import {
  admit,
  bootSpaces,
  expectStatus,
  ids,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';
import { promote } from '../memberships/support';

const NOT_FOUND = { code: 'E_NOT_FOUND', message: 'Not found' };

describe('post pins (design.md §9: PUT/DELETE /spaces/{id}/posts/{postId}/pin)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let admin: Actor;
  let member: Actor;
  let stranger: Actor;
  let space: string;
  let hidden: string;
  let older: string;
  let newer: string;
  let hiddenPost: string;

  const tick = () => {
    t.clock.offsetMs += 1000;
  };
  const pin = (caller: Actor, post: string, spaceId = space) =>
    caller.put(`/spaces/${spaceId}/posts/${post}/pin`);
  const unpin = (caller: Actor, post: string, spaceId = space) =>
    caller.delete(`/spaces/${spaceId}/posts/${post}/pin`);

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, admin, member, stranger] = await Promise.all([person(t), person(t), person(t), person(t)]);
    space = (await newSpace(owner, 'Pins')).id;
    hidden = (await newSpace(owner, 'Hidden')).id;
    await makePublic(owner, space);
    await admit(owner, space, admin);
    await promote(owner, space, admin);
    await admit(owner, space, member);
    const topic = await newTopic(owner, space, 'Open', 'public');
    older = (await newPost(member, space, { topic, body: 'First' })).id;
    tick();
    newer = (await newPost(member, space, { topic, body: 'Second' })).id;
    hiddenPost = (
      await newPost(owner, hidden, { topic: await newTopic(owner, hidden, 'H', 'public'), body: 'x' })
    ).id;
  });

  afterAll(async () => {
    await t.close();
  });

  it('pins a post for an admin and answers the post card with isPinned true; again changes nothing', async () => {
    const response = await pin(admin, older);
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ id: older, isPinned: true, viewer: { upvoted: false } });
    expect(response.body.body).toBeUndefined();
    expectStatus(await pin(owner, older), 200);
    expect((await pin(admin, older)).body.isPinned).toBe(true);
  });

  it('shows isPinned on cards and full posts; the listing stays by recency and the feed does not hoist', async () => {
    const listing = await member.get(`/v1/spaces/${space}/posts`);
    expect(ids(listing)).toEqual([newer, older]);
    expect(listing.body.items.map((item: { isPinned: boolean }) => item.isPinned)).toEqual([false, true]);
    const anonymous = await stranger.get(`/v1/spaces/${space}/posts?sort=oldest`);
    expect(anonymous.body.items[0]).toMatchObject({ id: older, isPinned: true });
    const full = await member.get(`/v1/spaces/${space}/posts/${older}`);
    expect(full.body.post.isPinned).toBe(true);
    const feed = await member.get('/v1/feed');
    expect(ids(feed)).toEqual([newer, older]);
    expect(feed.body.items[1].isPinned).toBe(true);
  });

  it('unpins (idempotent)', async () => {
    const response = await unpin(owner, older);
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ id: older, isPinned: false });
    expect((await unpin(admin, older)).body.isPinned).toBe(false);
    expect((await member.get(`/v1/spaces/${space}/posts/${older}`)).body.post.isPinned).toBe(false);
  });

  it('is 403 for a member who is not an admin (the author included) and for a non-member of a public space', async () => {
    expectStatus(await pin(member, newer), 403);
    expectStatus(await unpin(member, newer), 403);
    expectStatus(await pin(stranger, newer), 403);
    expect((await member.get(`/v1/spaces/${space}/posts/${newer}`)).body.post.isPinned).toBe(false);
  });

  it('is the 404 for a private space’s non-member, another space’s post, an unknown, malformed or deleted post', async () => {
    const missing = await pin(stranger, hiddenPost, hidden);
    expectStatus(missing, 404);
    expect(missing.body).toEqual(NOT_FOUND);
    expectStatus(await pin(owner, hiddenPost), 404);
    expectStatus(await pin(owner, 'post_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e'), 404);
    expectStatus(await pin(owner, 'nope'), 404);
    expectStatus(await member.delete(`/v1/spaces/${space}/posts/${newer}`), 200);
    expectStatus(await pin(owner, newer), 404);
  });

  it('needs a request proof', async () => {
    expectStatus(await request(t.http).put(`/spaces/${space}/posts/${older}/pin`), 401);
  });
});
