import request from 'supertest';
import { Actor } from '../../support/actors';
import { newTopic } from '../posts/support';
import {
  admit,
  bootMedia,
  expectInvalid,
  expectNotFound,
  expectStatus,
  makePublic,
  MediaTestApp,
  mint,
  newSpace,
  pathOf,
  person,
  png,
  storedOf,
  upload,
  uploaded,
} from './support';

type MediaObject = Record<string, unknown> & { id: string };
const urlOf = (media: MediaObject) => pathOf(media.url as string);

/**
 * Media in posts and comments (design.md §11 "Use", api-spec.md "Full post", "Comment"): ready media
 * of the same space uploaded by the writer, referenced (never copied), rendered as Media objects.
 */
describe('media wiring: post and comment attachments, attachment:// tokens', () => {
  let t: MediaTestApp;
  let owner: Actor;
  let member: Actor;
  let space: string;
  let otherSpace: string;
  let topic: string;
  let image: MediaObject;
  let second: MediaObject;
  let notes: MediaObject;
  let secondBytes: Buffer;

  beforeAll(async () => {
    t = await bootMedia();
    [owner, member] = await Promise.all([person(t), person(t)]);
    space = (await newSpace(owner, 'Gallery')).id;
    otherSpace = (await newSpace(owner, 'Elsewhere')).id;
    await makePublic(owner, space);
    await admit(owner, space, member);
    topic = await newTopic(owner, space, 'Public', 'public');
    image = await uploaded(
      t,
      owner,
      space,
      { filename: 'photo.png', contentType: 'image/png' },
      await png(64, 48),
    );
    secondBytes = await png(8, 8);
    second = await uploaded(t, owner, space, { filename: 'two.png', contentType: 'image/png' }, secondBytes);
    notes = await uploaded(
      t,
      owner,
      space,
      { filename: 'notes.txt', contentType: 'text/plain' },
      Buffer.from('plain notes\n'),
    );
  });

  afterAll(() => t?.close());

  const posts = () => `/v1/spaces/${space}/posts`;

  it('attaches media in order and places an image inline; images public, files signed', async () => {
    const created = await owner.post(posts(), {
      topic,
      title: 'With media',
      body: `Look: ![photo](attachment://${image.id})`,
      attachments: [notes.id, image.id],
    });
    expectStatus(created, 201);
    expect(created.headers['cache-control']).toBe('no-store');
    const { attachments, bodyMedia } = created.body as {
      attachments: MediaObject[];
      bodyMedia: MediaObject[];
    };
    expect(attachments.map((media) => media.id)).toEqual([notes.id, image.id]);
    expect(attachments[1]).toEqual({
      id: image.id,
      filename: 'photo.png',
      url: `http://api.plat.test/cdn/${image.id}/photo.png`,
      contentType: 'image/png',
      contentLength: expect.any(Number),
      width: 64,
      height: 48,
      blurHash: expect.any(String),
    });
    expect(attachments[0]).toMatchObject({
      id: notes.id,
      contentType: 'text/plain',
      url: expect.stringMatching(
        /^http:\/\/api\.plat\.test\/media-files\/media_[0-9a-f]{32}\/notes\.txt\?exp=/,
      ),
      urlExpiresAt: expect.any(String),
    });
    expect(bodyMedia).toEqual([attachments[1]]);

    // The anonymous projection of a public post carries the same media; its signed URL serves.
    const read = await request(t.http).get(`${posts()}/${created.body.id}`);
    expectStatus(read, 200);
    expect(read.headers['cache-control']).toBe('no-store');
    const anonymous = read.body.post.attachments as MediaObject[];
    expect(anonymous.map((media) => media.id)).toEqual([notes.id, image.id]);
    const file = await request(t.http).get(urlOf(anonymous[0]));
    expectStatus(file, 200);
    expect(file.text).toBe('plain notes\n');
    // A signature with one character changed is refused.
    const signed = urlOf(anonymous[0]);
    const tampered = signed.replace(/sig=(.)/, (_, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`);
    expectStatus(await request(t.http).get(tampered), 403);
  });

  it('a members-only post: a member (proof or credential) reads its media, signed URLs that serve; anonymous none', async () => {
    const inside = await newTopic(owner, space, 'Inside', 'members');
    const created = await owner.post(posts(), {
      topic: inside,
      title: 'Members only',
      body: `Inside: ![photo](attachment://${image.id})`,
      attachments: [notes.id, second.id],
    });
    expectStatus(created, 201);
    const path = `${posts()}/${created.body.id}`;
    const app = await person(t);
    const credential = member.grant(app, ['read:posts']);
    for (const read of [await member.get(path), await app.get(path, { credential })]) {
      expectStatus(read, 200);
      expect(read.headers['cache-control']).toBe('no-store');
      expect(read.body.state).toBe('eligible');
      const { attachments, bodyMedia } = read.body.post as {
        attachments: MediaObject[];
        bodyMedia: MediaObject[];
      };
      expect(attachments.map((media) => media.id)).toEqual([notes.id, second.id]);
      expect(bodyMedia.map((media) => media.id)).toEqual([image.id]);
      // The file is private: a URL signed now, and when it expires.
      const signed =
        /^http:\/\/api\.plat\.test\/media-files\/(media_[0-9a-f]{32})\/notes\.txt\?exp=(\d+)&sig=/;
      expect(attachments[0]).toEqual({
        id: notes.id,
        filename: 'notes.txt',
        url: expect.stringMatching(signed),
        contentType: 'text/plain',
        contentLength: 'plain notes\n'.length,
        urlExpiresAt: expect.any(String),
      });
      const [, signedId, exp] = signed.exec(attachments[0].url as string)!;
      expect(signedId).toBe(notes.id);
      expect(attachments[0].urlExpiresAt).toBe(new Date(Number(exp) * 1000).toISOString());
      // Images stay public and permanent, even in a members-only post.
      expect(attachments[1]).toMatchObject({ url: `http://api.plat.test/cdn/${second.id}/two.png` });
      expect(attachments[1]).not.toHaveProperty('urlExpiresAt');
      expect(bodyMedia[0]).not.toHaveProperty('urlExpiresAt');

      const file = await request(t.http).get(urlOf(attachments[0]));
      expectStatus(file, 200);
      expect(file.headers['content-type']).toBe('text/plain');
      expect(file.text).toBe('plain notes\n');
      const picture = await request(t.http).get(urlOf(attachments[1])).responseType('blob');
      expectStatus(picture, 200);
      expect(picture.headers['content-type']).toBe('image/png');
      expect(picture.body).toEqual(secondBytes);
    }

    // Anonymous readers, and a credential without read:posts, get the gated union: no content, no
    // media (api-spec.md "Post response union"); its comments are the constant 404 to a non-member.
    const writeOnly = member.grant(app, ['write:posts']);
    for (const gated of [await request(t.http).get(path), await app.get(path, { credential: writeOnly })]) {
      expectStatus(gated, 200);
      expect(gated.body).toMatchObject({ state: 'gated', reason: 'spaceMembers' });
      expect(gated.body).not.toHaveProperty('post');
      for (const id of [notes.id, second.id, image.id]) expect(gated.text).not.toContain(id);
    }
    expectNotFound(await (await person(t)).get(`${path}/comments`));
    expectStatus(await app.get(`${path}/comments`, { credential }), 200);
  });

  it('shows inline media of the returned body only: a token below the fold is omitted', async () => {
    const created = await owner.post(posts(), {
      topic,
      title: 'Folded',
      body: `Above attachment://${image.id}\n<!--fold-->\nBelow attachment://${second.id}`,
    });
    expectStatus(created, 201);
    expect((created.body.bodyMedia as MediaObject[]).map((media) => media.id)).toEqual([image.id]);
  });

  it('refuses media that is not ready, of another uploader or space, or not an image inline; stores nothing', async () => {
    const pending = (await mint(owner, space, { filename: 'later.png', contentType: 'image/png' })).media.id;
    const elsewhere = await uploaded(
      t,
      owner,
      otherSpace,
      { filename: 'x.png', contentType: 'image/png' },
      await png(),
    );
    const theirs = await uploaded(
      t,
      member,
      space,
      { filename: 'm.png', contentType: 'image/png' },
      await png(),
    );
    const before = (await request(t.http).get(posts())).body.items.length;
    const refused = await owner.post(posts(), {
      topic,
      title: 'Bad',
      body: `attachment://${notes.id}`,
      attachments: [pending, elsewhere.id, theirs.id],
    });
    expectStatus(refused, 400);
    expect(refused.body.details).toEqual([
      { path: 'attachments.0', message: `${pending} is not ready (pending)` },
      { path: 'attachments.1', message: `${elsewhere.id} was uploaded to another space` },
      { path: 'attachments.2', message: `${theirs.id} is not one of your uploads` },
      { path: 'body', message: `${notes.id} is not an image` },
    ]);
    // Short posts place no inline images; they carry at most 4 attachments.
    expectInvalid(await owner.post(posts(), { topic, body: `attachment://${image.id}` }), 'body');
    const five = await Promise.all(
      [1, 2, 3, 4, 5].map(
        async (n) =>
          (await uploaded(t, owner, space, { filename: `${n}.png`, contentType: 'image/png' }, await png()))
            .id,
      ),
    );
    expectInvalid(await owner.post(posts(), { topic, body: 'many', attachments: five }), 'attachments');
    // attachments is a set in order: naming one media twice is refused, on create and on PATCH.
    const repeated = await owner.post(posts(), { topic, body: 'twice', attachments: [image.id, image.id] });
    expectStatus(repeated, 400);
    expect(repeated.body.details).toEqual([
      { path: 'attachments', message: 'attachments must not repeat a media id' },
    ]);
    expect((await request(t.http).get(posts())).body.items.length).toBe(before);
    const kept = (await owner.post(posts(), { topic, body: 'once', attachments: [image.id] })).body;
    expectInvalid(
      await owner.patch(`${posts()}/${kept.id}`, { attachments: [second.id, second.id] }),
      'attachments',
    );
    const unchanged = await request(t.http).get(`${posts()}/${kept.id}`);
    expect(unchanged.body.post.attachments.map((media: MediaObject) => media.id)).toEqual([image.id]);
  });

  it('refuses a failed media (a PNG declared as image/jpeg) as attachment or inline; stores nothing', async () => {
    const minted = await mint(owner, space, { filename: 'not-a.jpg', contentType: 'image/jpeg' });
    expectInvalid(await upload(t, minted.uploadUrl, await png(), minted.uploadHeaders), 'body');
    const failed = minted.media.id;
    expect((await owner.get(`/v1/spaces/${space}/media/${failed}`)).body.status).toBe('failed');
    expect(await storedOf(t, failed)).toEqual([]);
    const all = async () => (await owner.get(`${posts()}?limit=100`)).body.items.length as number;
    const before = await all();
    const refused = await owner.post(posts(), {
      topic,
      title: 'Failed',
      body: `![x](attachment://${failed})`,
      attachments: [image.id, failed],
    });
    expectStatus(refused, 400);
    expect(refused.body).toMatchObject({ code: 'E_INVALID_REQUEST' });
    expect(refused.body.details).toEqual([
      { path: 'attachments.1', message: `${failed} is not ready (failed)` },
      { path: 'body', message: `${failed} is not ready (failed)` },
    ]);
    expect(await all()).toBe(before);
    // Nor on a PATCH of a post, nor on a comment: both stay as they were.
    const kept = (await owner.post(posts(), { topic, body: 'kept', attachments: [image.id] })).body;
    const patched = await owner.patch(`${posts()}/${kept.id}`, { attachments: [failed] });
    expectStatus(patched, 400);
    expect(patched.body.details).toEqual([
      { path: 'attachments.0', message: `${failed} is not ready (failed)` },
    ]);
    const unchanged = await owner.get(`${posts()}/${kept.id}`);
    expect(unchanged.body.post.attachments.map((media: MediaObject) => media.id)).toEqual([image.id]);
    const comments = `${posts()}/${kept.id}/comments`;
    const comment = await owner.post(comments, { attachments: [failed] });
    expectStatus(comment, 400);
    expect(comment.body.details).toEqual([
      { path: 'attachments.0', message: `${failed} is not ready (failed)` },
    ]);
    expect((await owner.get(comments)).body.items).toEqual([]);
  });

  it('PATCH replaces the attachments, [] clears them; a body-only change keeps them', async () => {
    const post = (await owner.post(posts(), { topic, body: 'short one', attachments: [image.id] })).body;
    const path = `${posts()}/${post.id}`;
    const replaced = await owner.patch(path, { attachments: [second.id, notes.id] });
    expectStatus(replaced, 200);
    expect(replaced.body.attachments.map((media: MediaObject) => media.id)).toEqual([second.id, notes.id]);
    const edited = await owner.patch(path, { body: 'edited' });
    expect(edited.body.attachments.map((media: MediaObject) => media.id)).toEqual([second.id, notes.id]);
    const cleared = await owner.patch(path, { attachments: [] });
    expect(cleared.body.attachments).toEqual([]);
  });

  it('deleting a post keeps its media: still served, still attachable (referenced, never copied)', async () => {
    const post = (await owner.post(posts(), { topic, body: 'to delete', attachments: [image.id, notes.id] }))
      .body;
    const keptBefore = await storedOf(t, image.id);
    expectStatus(await owner.delete(`${posts()}/${post.id}`), 200);
    expect(await storedOf(t, image.id)).toEqual(keptBefore);
    expect((await storedOf(t, notes.id)).length).toBeGreaterThan(0);
    expectStatus(await request(t.http).get(urlOf(image)), 200);
    const again = await owner.post(posts(), { topic, body: 'reused', attachments: [image.id] });
    expectStatus(again, 201);
    expect(again.body.attachments[0].id).toBe(image.id);
  });

  describe('comments', () => {
    let postId: string;
    let memberImage: MediaObject;

    beforeAll(async () => {
      postId = (await owner.post(posts(), { topic, title: 'Discuss', body: 'Talk here' })).body.id;
      memberImage = await uploaded(
        t,
        member,
        space,
        { filename: 'reply.png', contentType: 'image/png' },
        await png(10, 10),
      );
    });

    const comments = () => `${posts()}/${postId}/comments`;

    it('an attachments-only comment has body null; the listing shows its media', async () => {
      const created = await member.post(comments(), { attachments: [memberImage.id] });
      expectStatus(created, 201);
      expect(created.body.body).toBeNull();
      expect(created.body.attachments).toEqual([
        expect.objectContaining({
          id: memberImage.id,
          url: `http://api.plat.test/cdn/${memberImage.id}/reply.png`,
        }),
      ]);
      const listing = await member.get(comments());
      expectStatus(listing, 200);
      const item = listing.body.items.find((comment: { id: string }) => comment.id === created.body.id);
      expect(item.attachments.map((media: MediaObject) => media.id)).toEqual([memberImage.id]);
    });

    it("refuses someone else's media and inline tokens; PATCH replaces and clears attachments", async () => {
      expectInvalid(
        await member.post(comments(), { body: 'mine?', attachments: [image.id] }),
        'attachments.0',
      );
      expectInvalid(await member.post(comments(), { body: `attachment://${memberImage.id}` }), 'body');
      expectInvalid(
        await member.post(comments(), { body: 'twice', attachments: [memberImage.id, memberImage.id] }),
        'attachments',
      );
      const created = (await member.post(comments(), { body: 'text', attachments: [memberImage.id] })).body;
      const path = `/v1/spaces/${space}/comments/${created.id}`;
      const cleared = await member.patch(path, { attachments: [] });
      expectStatus(cleared, 200);
      expect(cleared.body.attachments).toEqual([]);
      expectInvalid(await member.patch(path, { attachments: [notes.id] }), 'attachments.0');
      const restored = await member.patch(path, { attachments: [memberImage.id] });
      expect(restored.body.attachments.map((media: MediaObject) => media.id)).toEqual([memberImage.id]);
    });
  });
});
