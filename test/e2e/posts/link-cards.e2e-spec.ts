import { parseEntityId } from '../../../src/common/ids/entity-id';
import { LinkPreviewsService } from '../../../src/link-previews';
import { Actor } from '../../support/actors';
import { recordResolved } from '../../support/link-previews';
import { naming, statementsDuring } from '../../support/statements';
import { bootMedia, MediaTestApp, png, uploaded } from '../media/support';
import { admit, expectStatus, makePublic, newPost, newSpace, newTopic, person } from './support';

const CDN = /^https?:\/\/[^/]+\/cdn\/media_[0-9a-f]{32}\/[^/]+$/;

/**
 * Link cards of a full post carry what link-previews resolved of their URLs, the same for every
 * viewer, read in one batch (docs/decisions/0156-link-cards-read-in-one-batch.md); writes queue
 * their URLs after commit and answer as before
 * (docs/decisions/0157-link-resolution-queued-after-the-write.md).
 */
describe('link cards of a full post (api-spec.md "Full post")', () => {
  let t: MediaTestApp;
  let owner: Actor;
  let member: Actor;
  let space: { id: string; did: string };
  let topic: string;
  let image: string;
  let favicon: string;

  beforeAll(async () => {
    // The background jobs a post starts (its announcement) stay out of the statement counts.
    t = await bootMedia({
      env: { CHAIN_OUTBOX_SWEEP_MS: String(3600_000), NOTIFY_ANNOUNCE_DELAY_MS: String(3600_000) },
    });
    [owner, member] = await Promise.all([person(t), person(t)]);
    expectStatus(await owner.signUp('cards-owner'), 201);
    space = await newSpace(owner, 'Cards');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    topic = await newTopic(owner, space.id, 'Open', 'public');
    const bytes = await png(16, 16);
    image = (await uploaded(t, owner, space.id, { filename: 'og.png', contentType: 'image/png' }, bytes)).id;
    favicon = (await uploaded(t, owner, space.id, { filename: 'icon.png', contentType: 'image/png' }, bytes))
      .id;
  });

  afterAll(() => t?.close());

  const read = async (viewer: Actor | null, postId: string) => {
    const response = viewer
      ? await viewer.get(`/v1/spaces/${space.id}/posts/${postId}`)
      : await t.anonymous.get(`/v1/spaces/${space.id}/posts/${postId}`);
    expectStatus(response, 200);
    return response.body.post as Record<string, unknown> & { links?: Record<string, unknown>[] };
  };

  it('resolved URLs show their metadata in links order, unresolved ones null, for member and stranger alike', async () => {
    const a = 'https://cards.example/a';
    const b = 'https://Cards.Example:443/b#frag';
    const c = 'https://unknown.example/c';
    await recordResolved(t.app, a, {
      title: 'Page A',
      description: 'About A',
      siteName: 'Example',
      imageMediaId: parseEntityId('media', image),
      faviconMediaId: parseEntityId('media', favicon),
    });
    await recordResolved(t.app, 'https://cards.example/b', { title: 'Page B' });
    const post = await newPost(member, space.id, { topic, body: `${c} then ${a} and ${b}` });
    // The write's answer shows its links as they were: resolution comes after it.
    expect(post.links).toEqual([
      { url: c, title: null, description: null, siteName: null, sortOrder: 0 },
      { url: a, title: null, description: null, siteName: null, sortOrder: 1 },
      { url: b, title: null, description: null, siteName: null, sortOrder: 2 },
    ]);

    const stranger = await read(null, post.id);
    expect(stranger.links).toEqual([
      { url: c, title: null, description: null, siteName: null, sortOrder: 0 },
      {
        url: a,
        title: 'Page A',
        description: 'About A',
        siteName: 'Example',
        sortOrder: 1,
        imageUrl: expect.stringMatching(CDN),
        faviconUrl: expect.stringMatching(CDN),
      },
      { url: b, title: 'Page B', description: null, siteName: null, sortOrder: 2 },
    ]);
    expect((stranger.links![1].imageUrl as string).includes(image)).toBe(true);
    expect((stranger.links![1].faviconUrl as string).includes(favicon)).toBe(true);
    expect((await read(member, post.id)).links).toEqual(stranger.links);
    expect((await read(owner, post.id)).links).toEqual(stranger.links);
  });

  it('a full-post read grows by one batched lookup (and one for images): none without links', async () => {
    const urls = Array.from({ length: 10 }, (_, i) => `https://ten.example/${i}`);
    for (const url of urls.slice(0, 5)) await recordResolved(t.app, url, { title: url });
    const linked = await newPost(member, space.id, { topic, body: urls.join(' ') });
    const plain = await newPost(member, space.id, { topic, body: 'no links here' });
    await read(null, linked.id);
    await read(null, plain.id);
    const withLinks = await statementsDuring(() => read(null, linked.id));
    const without = await statementsDuring(() => read(null, plain.id));
    expect(naming(withLinks, 'link_previews')).toHaveLength(1);
    expect(naming(without, 'link_previews')).toEqual([]);
    // No images among these records: one statement more than the post without links.
    expect(withLinks.length).toBe(without.length + 1);
    expect((await read(null, linked.id)).links!.map((card) => card.title)).toEqual([
      ...urls.slice(0, 5),
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it("a hot post's resolved cards come from this process's memory; a new resolution shows at once", async () => {
    const urls = Array.from({ length: 10 }, (_, i) => `https://hot.example/${i}`);
    for (const url of urls) await recordResolved(t.app, url, { title: `first ${url}` });
    const linked = await newPost(member, space.id, { topic, body: urls.join(' ') });
    const plain = await newPost(member, space.id, { topic, body: 'nothing linked' });
    await read(null, linked.id);
    await read(null, plain.id);
    // Every URL resolved and read lately: no lookup, the same statements as the post without links
    // (docs/decisions/0158-recent-link-previews-in-memory.md).
    const again = await statementsDuring(() => read(null, linked.id));
    expect(naming(again, 'link_previews')).toEqual([]);
    expect(again.length).toBe((await statementsDuring(() => read(null, plain.id))).length);
    expect((await read(member, linked.id)).links!.map((card) => card.title)).toEqual(
      urls.map((url) => `first ${url}`),
    );
    // A resolution recorded by this process drops what it kept of that URL.
    await recordResolved(t.app, urls[3], { title: 'second' });
    const cards = (await read(null, linked.id)).links!;
    expect(cards[3].title).toBe('second');
    expect(cards[4].title).toBe(`first ${urls[4]}`);
  });

  it("writes queue their posts' and comments' bare URLs after commit, with the same statements as without", async () => {
    const previews = t.app.get(LinkPreviewsService);
    const queued = jest.spyOn(previews, 'resolveSoon');
    try {
      const post = await newPost(member, space.id, {
        topic,
        body: 'See https://queue.example/one and [x](https://queue.example/md)<!--fold-->https://below.example',
      });
      expect(queued).toHaveBeenLastCalledWith(['https://queue.example/one']);
      queued.mockClear();
      const edited = await member.patch(`/v1/spaces/${space.id}/posts/${post.id}`, {
        body: 'Now https://queue.example/two',
      });
      expectStatus(edited, 200);
      expect(queued).toHaveBeenLastCalledWith(['https://queue.example/two']);
      queued.mockClear();
      const comment = await member.post(`/v1/spaces/${space.id}/posts/${post.id}/comments`, {
        body: 'also https://queue.example/comment',
      });
      expectStatus(comment, 201);
      expect(queued).toHaveBeenLastCalledWith(['https://queue.example/comment']);
      queued.mockClear();
      const plainComment = await member.post(`/v1/spaces/${space.id}/posts/${post.id}/comments`, {
        body: 'no link',
      });
      expectStatus(plainComment, 201);
      expect(queued).not.toHaveBeenCalled();

      // The same statements with links as without: queueing runs none. (The identity cache's
      // epoch is read when its time is up, whichever write comes then: not the write's own.)
      const during = async (run: () => Promise<unknown>) =>
        (await statementsDuring(run)).filter((statement) => !/relay_identity_cache_epoch/.test(statement));
      const create = (body: string) => () => newPost(member, space.id, { topic, body });
      const withLinks = await during(create('https://queue.example/a https://queue.example/b'));
      const without = await during(create('nothing to resolve'));
      expect(withLinks).toEqual(without);
      const reply = (body: string) => () =>
        member.post(`/v1/spaces/${space.id}/posts/${post.id}/comments`, { body });
      expect(await during(reply('see https://queue.example/c'))).toEqual(await during(reply('see nothing')));
    } finally {
      queued.mockRestore();
    }
  });
});
