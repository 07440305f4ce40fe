import request from 'supertest';
import { Actor } from '../../support/actors';
import { legacyImage, UNKNOWN_MEDIA } from '../../support/media-uploads';
import { newTopic } from '../posts/support';
import {
  admit,
  bootMedia,
  expectInvalid,
  expectStatus,
  makePublic,
  MediaTestApp,
  newSpace,
  person,
  uploaded,
  wav,
} from './support';

const cdn = (mediaId: string, filename: string) => `http://api.plat.test/cdn/${mediaId}/${filename}`;

/**
 * Avatars and headers everywhere a record shows them (api-spec.md: profile, Author, space
 * call-to-action, user space items, pinned spaces, membership items, invite preview): permanent
 * public URLs of ready images the person uploaded (design.md §11 "Use").
 */
describe('media wiring: avatars and headers', () => {
  let t: MediaTestApp;
  let owner: Actor;
  let member: Actor;
  let space: string;
  let spaceAvatar: string;
  let spaceHeader: string;
  let personAvatar: string;

  beforeAll(async () => {
    t = await bootMedia();
    [owner, member] = await Promise.all([person(t), person(t)]);
    expectStatus(await owner.signUp('avatar-owner', 'Ava'), 201);
    space = (await newSpace(owner, 'Pictures')).id;
    await makePublic(owner, space);
    await admit(owner, space, member);
    [spaceAvatar, spaceHeader, personAvatar] = await Promise.all([
      legacyImage(t, owner, 'space.png'),
      legacyImage(t, owner, 'header.png'),
      legacyImage(t, owner, 'me.png'),
    ]);
    expectStatus(await owner.put(`/spaces/${space}`, { avatarId: spaceAvatar, bannerId: spaceHeader }), 200);
  });

  afterAll(() => t?.close());

  it('a profile takes a ready image of its owner as avatarId and shows avatarUrl', async () => {
    const audio = await uploaded(t, owner, space, { filename: 'a.wav', contentType: 'audio/wav' }, wav(0.2));
    expectInvalid(await owner.patch('/profile', { avatarId: UNKNOWN_MEDIA }), 'avatarId');
    expectInvalid(await owner.patch('/profile', { avatarId: audio.id }), 'avatarId');
    const changed = await owner.patch('/profile', { avatarId: personAvatar, isPublic: true });
    expectStatus(changed, 200);
    expect(changed.body.avatarUrl).toBe(cdn(personAvatar, 'me.png'));
    const profile = await request(t.http).get('/v1/users/avatar-owner');
    expectStatus(profile, 200);
    expect(profile.body.avatarUrl).toBe(cdn(personAvatar, 'me.png'));
    const listed = (await request(t.http).get('/v1/users')).body.items;
    expect(listed.find((user: { handle: string }) => user.handle === 'avatar-owner').avatarUrl).toBe(
      cdn(personAvatar, 'me.png'),
    );
  });

  it('posts show the author avatar (create and read) and the space avatar on the call-to-action', async () => {
    expectStatus(await owner.patch('/profile', { avatarId: personAvatar }), 200);
    const topic = await newTopic(owner, space, 'Open', 'public');
    const created = await owner.post(`/v1/spaces/${space}/posts`, { topic, body: 'hello' });
    expectStatus(created, 201);
    expect(created.body.author.avatarUrl).toBe(cdn(personAvatar, 'me.png'));
    const read = await request(t.http).get(`/v1/spaces/${space}/posts/${created.body.id}`);
    expect(read.body.post.author.avatarUrl).toBe(cdn(personAvatar, 'me.png'));
    expect(read.body.space.avatarUrl).toBe(cdn(spaceAvatar, 'space.png'));
    const [card] = (await request(t.http).get(`/v1/spaces/${space}/posts`)).body.items;
    expect(card.author.avatarUrl).toBe(cdn(personAvatar, 'me.png'));
    const comment = await owner.post(`/v1/spaces/${space}/posts/${created.body.id}/comments`, { body: 'hi' });
    expect(comment.body.author.avatarUrl).toBe(cdn(personAvatar, 'me.png'));
  });

  it('user space items, pinned spaces and membership items show the space avatar', async () => {
    expectStatus(await owner.patch('/profile', { isPublic: true }), 200);
    const pinned = await owner.put(`/spaces/${space}/pin`, {});
    expectStatus(pinned, 200);
    expect(pinned.body.avatarUrl).toBe(cdn(spaceAvatar, 'space.png'));
    const spaces = (await request(t.http).get('/v1/users/avatar-owner/spaces')).body.items;
    expect(spaces[0].avatarUrl).toBe(cdn(spaceAvatar, 'space.png'));
    const users = (await request(t.http).get('/v1/users')).body.items;
    const me = users.find((user: { handle: string }) => user.handle === 'avatar-owner');
    expect(me.pinnedSpaces[0].avatarUrl).toBe(cdn(spaceAvatar, 'space.png'));
    const memberships = await member.get('/v1/memberships');
    expectStatus(memberships, 200);
    expect(memberships.body.items[0].space.avatarUrl).toBe(cdn(spaceAvatar, 'space.png'));
  });

  it('the invite preview carries avatar and banner as {url, width, height}', async () => {
    const invite = await owner.post(`/spaces/${space}/my-invite`, { id: space });
    expectStatus(invite, 201);
    const preview = await request(t.http).get(`/spaces/invites/${invite.body.inviteCode}`);
    expectStatus(preview, 200);
    expect(preview.body.avatar).toEqual({ url: cdn(spaceAvatar, 'space.png'), width: 40, height: 30 });
    expect(preview.body.banner).toEqual({ url: cdn(spaceHeader, 'header.png'), width: 40, height: 30 });
  });
});
