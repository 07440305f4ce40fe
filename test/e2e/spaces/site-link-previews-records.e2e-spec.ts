import { parseEntityId } from '../../../src/common/ids/entity-id';
import { Actor } from '../../support/actors';
import { recordResolved } from '../../support/link-previews';
import { naming, statementsDuring } from '../../support/statements';
import { bootMedia, MediaTestApp, png, uploaded } from '../media/support';
import { admit, expectStatus, makePublic, newSpace, person } from '../posts/support';

const CDN = /^https?:\/\/[^/]+\/cdn\/media_[0-9a-f]{32}\/[^/]+$/;

/**
 * A space's site links in the legacy record (GET /spaces/{space}) and in the `space` block of
 * membership items (GET /v1/memberships, GET /v1/membership/{space}): `title` and `imageUrl` once
 * resolved, absent otherwise, read in one batch per answer and none without links
 * (docs/decisions/0156-link-cards-read-in-one-batch.md).
 */
describe("a space's site links in its legacy record and membership items", () => {
  let t: MediaTestApp;
  let owner: Actor;
  let member: Actor;
  let linked: { id: string; did: string };
  let other: { id: string; did: string };
  let bare: { id: string; did: string };
  let image: string;
  const shop = { url: 'https://records.example/shop', label: 'Shop' };
  const blog = { url: 'https://records.example/blog', description: 'Our blog' };
  const news = { url: 'https://other.example/news' };

  beforeAll(async () => {
    t = await bootMedia();
    [owner, member] = await Promise.all([person(t), person(t)]);
    linked = await newSpace(owner, 'Linked records');
    other = await newSpace(owner, 'Other records');
    bare = await newSpace(owner, 'No links');
    for (const space of [linked, other, bare]) {
      await makePublic(owner, space.id);
      await admit(owner, space.id, member);
    }
    image = (
      await uploaded(t, owner, linked.id, { filename: 'og.png', contentType: 'image/png' }, await png(8, 8))
    ).id;
    expectStatus(await owner.put(`/spaces/${linked.id}/site`, { links: [shop, blog] }), 200);
    expectStatus(await owner.put(`/spaces/${other.id}/site`, { links: [news] }), 200);
  });

  afterAll(() => t?.close());

  const unresolvedLinks = [
    { url: shop.url, label: 'Shop', description: null },
    { url: blog.url, label: null, description: 'Our blog' },
  ];

  it('shows links unresolved as before, then with their resolved title and image', async () => {
    const before = await member.get(`/spaces/${linked.id}`);
    expectStatus(before, 200);
    expect(before.body.links).toEqual(unresolvedLinks);
    const memberships = await member.get('/v1/memberships');
    expectStatus(memberships, 200);
    const blockOf = (body: { items: { space: { id: string; links: unknown[] } }[] }, id: string) =>
      body.items.find((item) => item.space.id === id)!.space;
    expect(blockOf(memberships.body, linked.id).links).toEqual(unresolvedLinks);

    await recordResolved(t.app, shop.url, { title: 'The shop', imageMediaId: parseEntityId('media', image) });
    await recordResolved(t.app, blog.url, { title: 'The blog' });
    await recordResolved(t.app, news.url, { title: 'The news' });
    const resolvedLinks = [
      {
        url: shop.url,
        label: 'Shop',
        title: 'The shop',
        description: null,
        imageUrl: expect.stringMatching(CDN),
      },
      { url: blog.url, label: null, title: 'The blog', description: 'Our blog' },
    ];

    const record = await member.get(`/spaces/${linked.id}`);
    expectStatus(record, 200);
    expect(record.body.links).toEqual(resolvedLinks);
    const asOwner = await owner.get(`/spaces/${linked.id}`);
    expect(asOwner.body.links).toEqual(record.body.links);

    const listed = await member.get('/v1/memberships');
    expectStatus(listed, 200);
    expect(blockOf(listed.body, linked.id).links).toEqual(resolvedLinks);
    expect(blockOf(listed.body, other.id).links).toEqual([
      { url: news.url, label: null, title: 'The news', description: null },
    ]);
    expect(blockOf(listed.body, bare.id).links).toEqual([]);

    const one = await member.get(`/v1/membership/${linked.id}`);
    expectStatus(one, 200);
    expect(one.body.space.links).toEqual(resolvedLinks);
  });

  it('reads the previews in one batched statement per answer, none without links or when read lately', async () => {
    const previewStatements = async (path: string) =>
      naming(await statementsDuring(() => member.get(path)), 'link_previews');
    // A resolution recorded drops what this process kept of its URL: the next answer reads it.
    const resolvedAgain = async () => {
      await recordResolved(t.app, shop.url, {
        title: 'The shop',
        imageMediaId: parseEntityId('media', image),
      });
      await recordResolved(t.app, blog.url, { title: 'The blog' });
      await recordResolved(t.app, news.url, { title: 'The news' });
    };
    // Once read, served from memory (docs/decisions/0158-recent-link-previews-in-memory.md).
    for (const path of [`/spaces/${linked.id}`, '/v1/memberships', `/v1/membership/${linked.id}`]) {
      await resolvedAgain();
      expect(await previewStatements(path)).toHaveLength(1);
      expect(await previewStatements(path)).toEqual([]);
    }
    expect(await previewStatements(`/spaces/${bare.id}`)).toEqual([]);
    expect(await previewStatements(`/v1/membership/${bare.id}`)).toEqual([]);
  });
});
