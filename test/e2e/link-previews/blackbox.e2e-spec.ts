import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import sharp from 'sharp';
import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { bootMedia, MediaTestApp } from '../media/support';
import { admit, expectStatus, makePublic, newPost, newSpace, newTopic, person } from '../posts/support';

/** A permanent public CDN URL of ours (api-spec.md "Full post": `/cdn/<id>/<name>`). */
const CDN = /^http:\/\/api\.plat\.test\/cdn\/media_[0-9a-f]{32}\/[^/?]+$/;
/** What a card of a URL shows before (or without) resolution. */
const unresolved = (url: string, sortOrder: number) => ({
  url,
  title: null,
  description: null,
  siteName: null,
  sortOrder,
});

/**
 * Issue 32, "How it will be checked", as an outside client does it: pages served by this test on a
 * local address (let through by OUTBOUND_ALLOWED_PRIVATE_HOSTS), posts, a comment, a user profile
 * and a space's site links written over HTTP, the service left to resolve them in the background,
 * and the cards read back as the author, a member, a signed-in stranger and an anonymous reader,
 * field by field as api-spec.md "Full post" (link cards) and "ProfileLink" give them. Nothing of
 * src/link-previews is imported or called.
 */
describe('link previews, black box (issue 32)', () => {
  const hits = new Map<string, number>();
  const pages = new Map<string, (response: http.ServerResponse) => void>();
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://local').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const page = pages.get(path);
    if (page) return page(response);
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let port = 0;
  const at = (path: string) => `http://127.0.0.1:${port}${path}`;
  const htmlPage =
    (body: string, type = 'text/html; charset=utf-8') =>
    (response: http.ServerResponse) =>
      response.writeHead(200, { 'content-type': type }).end(body);
  /** The held page answers only once the test lets it. */
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));

  let t: MediaTestApp;
  let owner: Actor;
  let member: Actor;
  let outsider: Actor;
  let space: { id: string; did: string };
  let topic: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const png = await sharp({ create: { width: 48, height: 24, channels: 3, background: '#a35' } })
      .png()
      .toBuffer();
    const image = (response: http.ServerResponse) =>
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    pages.set('/img/cover.png', image);
    pages.set('/img/icon.png', image);
    pages.set('/img/profile.png', image);
    pages.set(
      '/article',
      htmlPage(`<!doctype html><html><head>
        <title>Not this one</title>
        <meta property="og:title" content="The  article ">
        <meta property="og:description" content="What it says &amp; more">
        <meta property="og:site_name" content="Black Box Site">
        <meta property="og:image" content="/img/cover.png">
        <link rel="icon" href="/img/icon.png">
      </head><body>text</body></html>`),
    );
    pages.set(
      '/tweet',
      htmlPage(`<head><meta name="twitter:card" content="summary">
        <meta name="twitter:title" content="Card title"><meta name="twitter:description" content="Card text"></head>`),
    );
    pages.set('/titled', htmlPage('<html><head><title>Only a title</title></head></html>'));
    pages.set('/bare', htmlPage('<html><body>no metadata</body></html>'));
    pages.set('/file.pdf', htmlPage('%PDF-1.4', 'application/pdf'));
    pages.set('/moved', (response) => response.writeHead(301, { location: '/landed' }).end());
    pages.set('/landed', htmlPage('<title>Landed</title>'));
    pages.set('/latin', (response) =>
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end(Buffer.from('<meta charset="iso-8859-1"><title>Caf\u00e9</title>', 'latin1')),
    );
    pages.set('/held', (response) => {
      void held.then(() => htmlPage('<title>Held back</title>')(response));
    });
    pages.set('/commented', htmlPage('<title>From a comment</title>'));
    pages.set(
      '/profile-page',
      htmlPage('<title>My page</title><meta property="og:image" content="/img/profile.png">'),
    );
    pages.set('/space-page', htmlPage('<meta property="og:title" content="Our shop">'));

    t = await bootMedia({ env: { OUTBOUND_ALLOWED_PRIVATE_HOSTS: `127.0.0.1:${port}` } });
    [owner, member, outsider] = await Promise.all([person(t), person(t), person(t)]);
    expectStatus(await owner.signUp('blackbox-owner'), 201);
    expectStatus(await outsider.signUp('blackbox-outsider'), 201);
    space = await newSpace(owner, 'Black box');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    topic = await newTopic(owner, space.id, 'Open', 'public');
  });

  afterAll(async () => {
    release();
    await t?.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  /** The full post's link cards as one viewer (null: anonymous) reads them. */
  const cardsOf = async (viewer: Actor | null, postId: string): Promise<Record<string, unknown>[]> => {
    const path = `/v1/spaces/${space.id}/posts/${postId}`;
    const response = viewer ? await viewer.get(path) : await t.anonymous.get(path);
    expectStatus(response, 200);
    return response.body.post.links as Record<string, unknown>[];
  };

  const urls = {
    article: () => at('/article'),
    tweet: () => at('/tweet'),
    titled: () => at('/titled'),
    bare: () => at('/bare'),
    pdf: () => at('/file.pdf'),
    moved: () => at('/moved'),
    latin: () => at('/latin'),
    held: () => at('/held'),
    // A private address nobody let through: refused, never fetched.
    refused: () => 'http://10.9.8.7/private',
  };

  it("a post's cards: null at once (the read never waits), then each page's metadata in links order, alike for every viewer", async () => {
    const order = [
      urls.article(),
      urls.tweet(),
      urls.titled(),
      urls.bare(),
      urls.pdf(),
      urls.moved(),
      urls.latin(),
      urls.refused(),
      urls.held(),
    ];
    const post = await newPost(owner, space.id, { topic, body: `Links:\n${order.join('\n')}\n` });

    // Read while /held has not answered: its card is unresolved, and the read answered anyway.
    const early = await cardsOf(null, post.id);
    expect(early.map((card) => card.url)).toEqual(order);
    expect(early[8]).toEqual(unresolved(urls.held(), 8));

    const resolvedTitles = (cards: Record<string, unknown>[]) =>
      cards[0].title !== null &&
      cards[1].title !== null &&
      cards[2].title !== null &&
      cards[5].title !== null &&
      cards[6].title !== null;
    const cards = await eventually(() => cardsOf(null, post.id), resolvedTitles, 30_000);
    expect(cards).toEqual([
      {
        url: urls.article(),
        title: 'The article',
        description: 'What it says & more',
        siteName: 'Black Box Site',
        sortOrder: 0,
        imageUrl: expect.stringMatching(CDN),
        faviconUrl: expect.stringMatching(CDN),
      },
      { url: urls.tweet(), title: 'Card title', description: 'Card text', siteName: null, sortOrder: 1 },
      { url: urls.titled(), title: 'Only a title', description: null, siteName: null, sortOrder: 2 },
      unresolved(urls.bare(), 3),
      unresolved(urls.pdf(), 4),
      { url: urls.moved(), title: 'Landed', description: null, siteName: null, sortOrder: 5 },
      { url: urls.latin(), title: 'Café', description: null, siteName: null, sortOrder: 6 },
      unresolved(urls.refused(), 7),
      unresolved(urls.held(), 8),
    ]);

    // Images are ours: served from /cdn as PNG, never the remote address.
    for (const served of [cards[0].imageUrl, cards[0].faviconUrl] as string[]) {
      expect(served.includes(String(port))).toBe(false);
      const bytes = await t.anonymous.get(new URL(served).pathname);
      expectStatus(bytes, 200);
      expect(bytes.headers['content-type']).toMatch(/^image\/png/);
    }

    // The held page answers: its card follows, without another write.
    release();
    const after = await eventually(
      () => cardsOf(null, post.id),
      (read) => read[8].title !== null,
    );
    expect(after[8]).toEqual({
      url: urls.held(),
      title: 'Held back',
      description: null,
      siteName: null,
      sortOrder: 8,
    });

    for (const viewer of [owner, member, outsider]) {
      expect(await cardsOf(viewer, post.id)).toEqual(after);
    }
  });

  it('the same URL in a second post is not fetched again, and shows the same card', async () => {
    // A body without bare URLs has no cards at all.
    expect(
      await cardsOf(null, (await newPost(member, space.id, { topic, body: 'no links' })).id),
    ).toBeUndefined();
    const again = await newPost(member, space.id, {
      topic,
      body: `Also ${urls.article()} and ${urls.titled()}`,
    });
    const cards = await cardsOf(outsider, again.id);
    expect(cards[0]).toMatchObject({ url: urls.article(), title: 'The article', sortOrder: 0 });
    expect(cards[1]).toMatchObject({ url: urls.titled(), title: 'Only a title', sortOrder: 1 });
    expect(await cardsOf(null, again.id)).toEqual(cards);
    expect(hits.get('/article')).toBe(1);
    expect(hits.get('/titled')).toBe(1);
    expect(hits.get('/img/cover.png')).toBe(1);
    expect(hits.get('/file.pdf')).toBe(1);
    expect(hits.get('/moved')).toBe(1);
    expect(hits.get('/private')).toBeUndefined();
  });

  it("a comment's links are resolved too", async () => {
    const post = await newPost(owner, space.id, { topic, body: 'Comment below' });
    const comment = await member.post(`/v1/spaces/${space.id}/posts/${post.id}/comments`, {
      body: `see ${at('/commented')}`,
    });
    expectStatus(comment, 201);
    expect(
      await eventually(
        () => hits.get('/commented') ?? 0,
        (count) => count > 0,
      ),
    ).toBe(1);
  });

  it('a user profile link shows title and imageUrl once resolved, absent for a page without metadata; the same for everyone', async () => {
    const links = [
      { url: at('/profile-page'), label: 'Mine' },
      { url: urls.bare() },
      { url: urls.titled(), description: 'A page I like' },
    ];
    expectStatus(await owner.patch('/profile', { isPublic: true, links }), 200);
    const profile = await eventually(
      async () => (await t.anonymous.get('/v1/users/blackbox-owner')).body,
      (body) => body.links?.[0]?.title !== undefined,
    );
    expect(profile.links).toEqual([
      {
        url: at('/profile-page'),
        label: 'Mine',
        title: 'My page',
        description: null,
        imageUrl: expect.stringMatching(CDN),
      },
      { url: urls.bare(), label: null, description: null },
      { url: urls.titled(), label: null, title: 'Only a title', description: 'A page I like' },
    ]);
    const image = await t.anonymous.get(new URL(profile.links[0].imageUrl as string).pathname);
    expectStatus(image, 200);
    expect(image.headers['content-type']).toMatch(/^image\/png/);
    expect((await owner.get('/v1/profile')).body.links).toEqual(profile.links);
    const asOutsider = await outsider.get('/v1/users/blackbox-owner');
    expectStatus(asOutsider, 200);
    expect(asOutsider.body.links).toEqual(profile.links);
  });

  it("a space's site links show title once resolved, the same for members and strangers", async () => {
    const links = [{ url: at('/space-page'), label: 'Shop' }, { url: urls.tweet() }];
    expectStatus(await owner.put(`/spaces/${space.id}/site`, { links }), 200);
    const read = await eventually(
      async () => (await t.anonymous.get(`/v1/spaces/${space.id}`)).body,
      (body) => body.links?.[0]?.title !== undefined,
    );
    expect(read.links).toEqual([
      { url: at('/space-page'), label: 'Shop', title: 'Our shop', description: null },
      { url: urls.tweet(), label: null, title: 'Card title', description: null },
    ]);
    for (const viewer of [owner, member, outsider]) {
      const seen = await viewer.get(`/v1/spaces/${space.id}`);
      expectStatus(seen, 200);
      expect(seen.body.links).toEqual(read.links);
    }
    expect(hits.get('/tweet')).toBe(1);
  });
});
