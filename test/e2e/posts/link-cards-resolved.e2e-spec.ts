import sharp from 'sharp';
import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { html, LocalWeb } from '../link-previews/local-web';
import { bootMedia, MediaTestApp } from '../media/support';
import { admit, expectStatus, makePublic, newPost, newSpace, newTopic, person } from './support';

const CDN = /^https?:\/\/[^/]+\/cdn\/media_[0-9a-f]{32}\/[^/]+$/;

/**
 * As a client sees it: pages served on a local address the configuration allows, a post, a
 * profile and a space linking to them, the cards read back by members and strangers once the
 * background resolution has run (docs/decisions/0156-link-cards-read-in-one-batch.md,
 * 0157-link-resolution-queued-after-the-write.md).
 */
describe('link cards resolved in the background, read back by members and strangers', () => {
  const web = new LocalWeb();
  let t: MediaTestApp;
  let owner: Actor;
  let member: Actor;
  let space: { id: string; did: string };
  let topic: string;

  beforeAll(async () => {
    const port = await web.start();
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3a6' } })
      .png()
      .toBuffer();
    web.routes.set('/img/og.png', (_q, s) => s.writeHead(200, { 'content-type': 'image/png' }).end(png));
    web.routes.set('/img/icon.png', (_q, s) => s.writeHead(200, { 'content-type': 'image/png' }).end(png));
    web.routes.set(
      '/article',
      html(`<!doctype html><html><head>
        <title>Plain title</title>
        <meta property="og:title" content="The article">
        <meta property="og:description" content="What the article says">
        <meta property="og:site_name" content="Local Site">
        <meta property="og:image" content="/img/og.png">
        <link rel="icon" href="/img/icon.png">
      </head><body>hi</body></html>`),
    );
    web.routes.set('/titled', html('<html><head><title>Only a title</title></head></html>'));
    t = await bootMedia({ env: { OUTBOUND_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${port}` } });
    [owner, member] = await Promise.all([person(t), person(t)]);
    expectStatus(await owner.signUp('resolved-owner'), 201);
    space = await newSpace(owner, 'Resolved');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    topic = await newTopic(owner, space.id, 'Open', 'public');
  });

  afterAll(async () => {
    await t?.close();
    await web.stop();
  });

  it('a post’s cards show the pages’ metadata, the same for its author, a member and a stranger', async () => {
    const article = web.url('/article');
    const titled = web.url('/titled');
    const missing = web.url('/missing');
    const post = await newPost(owner, space.id, { topic, body: `Read ${article}, ${titled} and ${missing}` });
    const path = `/v1/spaces/${space.id}/posts/${post.id}`;
    const cards = await eventually(
      async () => (await t.anonymous.get(path)).body.post.links as Record<string, unknown>[],
      (links) => links[0].title !== null && links[1].title !== null,
    );
    expect(cards).toEqual([
      {
        url: article,
        title: 'The article',
        description: 'What the article says',
        siteName: 'Local Site',
        sortOrder: 0,
        imageUrl: expect.stringMatching(CDN),
        faviconUrl: expect.stringMatching(CDN),
      },
      { url: titled, title: 'Only a title', description: null, siteName: null, sortOrder: 1 },
      { url: missing, title: null, description: null, siteName: null, sortOrder: 2 },
    ]);
    const image = await t.anonymous.get(new URL(cards[0].imageUrl as string).pathname);
    expectStatus(image, 200);
    for (const viewer of [owner, member]) {
      const read = await viewer.get(path);
      expectStatus(read, 200);
      expect(read.body.post.links).toEqual(cards);
    }
    // Fetched once, however often it was read.
    expect(web.hits.get('/article')).toBe(1);
  });

  it('profile links and site links show title and imageUrl once resolved', async () => {
    const article = web.url('/article');
    const titled = web.url('/titled');
    expectStatus(
      await owner.patch('/profile', { isPublic: true, links: [{ url: article }, { url: titled }] }),
      200,
    );
    expectStatus(
      await owner.put(`/spaces/${space.id}/site`, { links: [{ url: titled, label: 'Ours' }] }),
      200,
    );
    const profile = await eventually(
      async () => (await t.anonymous.get('/v1/users/resolved-owner')).body,
      (body) => body.links?.[0]?.title !== undefined && body.links?.[1]?.title !== undefined,
    );
    expect(profile.links).toEqual([
      {
        url: article,
        label: null,
        title: 'The article',
        description: null,
        imageUrl: expect.stringMatching(CDN),
      },
      { url: titled, label: null, title: 'Only a title', description: null },
    ]);
    expect((await owner.get('/v1/profile')).body.links).toEqual(profile.links);
    const site = await t.anonymous.get(`/v1/spaces/${space.id}`);
    expectStatus(site, 200);
    expect(site.body.links).toEqual([
      { url: titled, label: 'Ours', title: 'Only a title', description: null },
    ]);
    expect((await member.get(`/v1/spaces/${space.id}`)).body.links).toEqual(site.body.links);
  });
});
