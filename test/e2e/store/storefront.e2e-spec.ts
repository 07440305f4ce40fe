import { AppConfig } from '../../../src/config/app-config';
import {
  bootSpaces,
  Caller,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  publicSpace,
  SpacesTestApp,
} from '../spaces/support';
import { createProduct, createRelease, ProductRecord } from './support';
import { legacyImage, UNKNOWN_MEDIA } from '../../support/media-uploads';
import { statementsDuring } from '../../support/statements';

// design.md §13's members in its order (clients compare bytes): assertions use unsorted keys.
const CARD_KEYS = ['id', 'slug', 'name', 'cover', 'prices', 'isSoldOut', 'purchasable'];
const PAGE_KEYS = [
  'id',
  'slug',
  'name',
  'description',
  'cover',
  'prices',
  'isSoldOut',
  'purchasable',
  'release',
  'space',
  'canonicalUri',
];
const RELEASE_CARD_KEYS = ['id', 'slug', 'title', 'cover', 'publishedAt', 'canonicalUri'];
const FULL_RELEASE_KEYS = [...RELEASE_CARD_KEYS, 'description', 'credits', 'products'];
const RELEASE_REFERENCE_KEYS = ['id', 'slug', 'title'];
const CREDIT_KEYS = ['name', 'role', 'did'];
/** design.md §9's price: `{id, type, currency, amount, suggestedAmount?, interval?, archived}`. */
const PRICE_KEYS = ['id', 'type', 'currency', 'amount', 'suggestedAmount', 'interval', 'archived'];
/** api-spec.md "Space call-to-action (compact context)". */
const SPACE_KEYS = [
  'displayName',
  'description',
  'avatarUrl',
  'domain',
  'joinMode',
  'subscribeEnabled',
  'memberCountSummary',
];

/** The keys of a price as sent, which must be PRICE_KEYS less the optional ones absent. */
const expectPriceKeys = (price: object) =>
  expect(Object.keys(price)).toEqual(PRICE_KEYS.filter((key) => key in price));

describe('the store’s public reads (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;
  let webDomain: string;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
    webDomain = t.app.get(AppConfig).SPACES_WEB_DOMAIN;
  });

  afterAll(async () => {
    await t.close();
  });

  const anonymousGet = (path: string) => t.anonymous.get(path);

  /** A public space with a claimed subdomain, so canonical URIs are predictable. */
  async function namedSpace(domain: string): Promise<string> {
    const id = await publicSpace(owner);
    expectStatus(await owner.put(`/spaces/${id}/domain`, { domain }), 200);
    return id;
  }

  it('an empty or unpublished catalog is an empty page; spaces without a public profile are the one 404', async () => {
    const spaceId = await publicSpace(owner);
    await createProduct(owner, spaceId, { published: false });
    await createRelease(owner, spaceId, { published: false });
    for (const path of ['products', 'releases']) {
      const response = await anonymousGet(`/v1/spaces/${spaceId}/${path}`);
      expectStatus(response, 200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toEqual({ items: [], nextCursor: null, previousCursor: null });
    }
    const hidden = (await createSpace(owner)).id;
    const product = await createProduct(owner, hidden, { slug: 'hidden-product' });
    const release = await createRelease(owner, hidden, { slug: 'hidden-release' });
    const deleted = await publicSpace(owner);
    expectStatus(await owner.delete(`/spaces/${deleted}`), 204);
    for (const space of [hidden, deleted, `space_${'0'.repeat(32)}`, 'nowhere', '%20']) {
      expectNotFound(await anonymousGet(`/v1/spaces/${space}/products`));
      expectNotFound(await anonymousGet(`/v1/spaces/${space}/releases`));
      expectNotFound(await anonymousGet(`/v1/spaces/${space}/products/hidden-product`));
      expectNotFound(await anonymousGet(`/v1/spaces/${space}/releases/hidden-release`));
      expectNotFound(await anonymousGet(`/v1/spaces/${space}/releases/${release.id}`));
    }
    // Even the owner, signed, reads only public projections here.
    expectNotFound(await owner.get(`/v1/spaces/${hidden}/products/${product.slug}`));
  });

  it('shows covers of products and releases as public images, and the space avatar on the purchase page', async () => {
    const spaceId = await publicSpace(owner);
    const [cover, art, avatar] = await Promise.all([
      legacyImage(t, owner, 'cover.png'),
      legacyImage(t, owner, 'art.png'),
      legacyImage(t, owner, 'avatar.png'),
    ]);
    expectStatus(await owner.put(`/spaces/${spaceId}`, { avatarId: avatar }), 200);
    const product = await createProduct(owner, spaceId, { name: 'Poster', slug: 'poster', coverId: cover });
    const coverObject = {
      id: cover,
      filename: 'cover.png',
      url: `http://api.plat.test/cdn/${cover}/cover.png`,
      contentType: 'image/png',
      contentLength: expect.any(Number),
      width: 40,
      height: 30,
      blurHash: expect.any(String),
    };
    expect(product.cover).toEqual(coverObject);
    const release = await createRelease(owner, spaceId, {
      slug: 'record',
      coverId: art,
      productIds: [product.id],
    });
    expect(release.cover).toMatchObject({ id: art, url: `http://api.plat.test/cdn/${art}/art.png` });

    const [card] = (await anonymousGet(`/v1/spaces/${spaceId}/products`)).body.items;
    expect(card.cover).toEqual(coverObject);
    const page = (await anonymousGet(`/v1/spaces/${spaceId}/products/poster`)).body;
    expect(page.cover).toEqual(coverObject);
    expect(page.space.avatarUrl).toBe(`http://api.plat.test/cdn/${avatar}/avatar.png`);
    const [releaseCard] = (await anonymousGet(`/v1/spaces/${spaceId}/releases`)).body.items;
    expect(releaseCard.cover).toMatchObject({ id: art });
    const full = (await anonymousGet(`/v1/spaces/${spaceId}/releases/record`)).body;
    expect(full.cover).toMatchObject({ id: art });
    expect(full.products[0].cover).toEqual(coverObject);
    expect(coverObject).not.toHaveProperty('urlExpiresAt');

    // Absent keeps the cover, null clears it; someone else's image is a 400.
    const put = (body: Record<string, unknown>) =>
      owner.put(`/spaces/${spaceId}/products/${product.id}`, {
        name: 'Poster',
        published: true,
        prices: [{ type: 'one-time', currency: 'EUR', amount: 100 }],
        ...body,
      });
    expect((await put({})).body.cover).toEqual(coverObject);
    expect((await put({ coverId: null })).body.cover).toBeNull();
    const theirs = await legacyImage(t, t.caller(), 'theirs.png');
    expectInvalid(await put({ coverId: theirs }), 'coverId');
    expectInvalid(await put({ coverId: UNKNOWN_MEDIA }), 'coverId');
  });

  it('lists published product cards by sortOrder then id, with only active one-time and pay-what-you-want prices', async () => {
    const spaceId = await namedSpace('poster-shop');
    const b = await createProduct(owner, spaceId, { name: 'B', sortOrder: 2 });
    const a = await createProduct(owner, spaceId, {
      name: 'A',
      sortOrder: 1,
      soldOut: true,
      purchasable: false,
      prices: [
        { type: 'one-time', currency: 'EUR', amount: 1000 },
        { type: 'recurring', currency: 'EUR', amount: 500, interval: 'month' },
        { type: 'one-time', currency: 'USD', amount: 900, archived: true },
        { type: 'pay-what-you-want', currency: 'EUR', amount: 200, suggestedAmount: 800 },
        { type: 'pay-what-you-want', currency: 'GBP', amount: 0 },
      ],
    });
    const tie1 = await createProduct(owner, spaceId, { name: 'Tie 1', sortOrder: 2 });
    await createProduct(owner, spaceId, { name: 'Draft', sortOrder: 0, published: false });
    const gone = await createProduct(owner, spaceId, { name: 'Gone', sortOrder: 0 });
    expectStatus(await owner.delete(`/spaces/${spaceId}/products/${gone.id}`), 204);

    const response = await anonymousGet(`/v1/spaces/poster-shop/products`);
    expectStatus(response, 200);
    expect(response.headers['cache-control']).toBe('no-store');
    const items = response.body.items as Record<string, unknown>[];
    const sameSort = [b, tie1].sort((x, y) => x.id.localeCompare(y.id));
    expect(items.map((item) => item.id)).toEqual([a.id, ...sameSort.map((item) => item.id)]);
    for (const item of items) {
      expect(Object.keys(item)).toEqual(CARD_KEYS);
      for (const price of item.prices as object[]) expectPriceKeys(price);
    }
    expect((items[0].prices as object[]).map((price) => Object.keys(price))).toContainEqual([
      'id',
      'type',
      'currency',
      'amount',
      'suggestedAmount',
      'archived',
    ]);
    expect(items[0]).toEqual({
      id: a.id,
      slug: 'a',
      name: 'A',
      cover: null,
      prices: [
        { id: a.prices[0].id, type: 'one-time', currency: 'EUR', amount: 1000, archived: false },
        {
          id: a.prices[3].id,
          type: 'pay-what-you-want',
          currency: 'EUR',
          amount: 200,
          suggestedAmount: 800,
          archived: false,
        },
        { id: a.prices[4].id, type: 'pay-what-you-want', currency: 'GBP', amount: 0, archived: false },
      ],
      isSoldOut: true,
      purchasable: false,
    });
    // The same list by space DID.
    const space = (await anonymousGet(`/v1/spaces/${spaceId}`)).body as { did: string };
    expect((await anonymousGet(`/v1/spaces/${space.did}/products`)).body.items).toEqual(items);
  });

  it('serves the purchase page with the release, the space call-to-action and the canonical URI', async () => {
    const spaceId = await namedSpace('record-shop');
    const product = await createProduct(owner, spaceId, {
      name: 'Vinyl',
      description: 'Twelve inches',
      prices: [
        { type: 'one-time', currency: 'EUR', amount: 2000 },
        { type: 'recurring', currency: 'EUR', amount: 500, interval: 'year' },
      ],
    });
    const loose = await createProduct(owner, spaceId, { name: 'Loose' });
    const page = await anonymousGet(`/v1/spaces/record-shop/products/vinyl`);
    expectStatus(page, 200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(Object.keys(page.body)).toEqual(PAGE_KEYS);
    expect(Object.keys(page.body.space)).toEqual(SPACE_KEYS);
    for (const price of page.body.prices) expectPriceKeys(price);
    expect(page.body).toEqual({
      id: product.id,
      slug: 'vinyl',
      name: 'Vinyl',
      description: 'Twelve inches',
      cover: null,
      prices: [
        { id: product.prices[0].id, type: 'one-time', currency: 'EUR', amount: 2000, archived: false },
      ],
      isSoldOut: false,
      purchasable: true,
      release: null,
      space: {
        displayName: 'Makers',
        description: 'A place to make things',
        avatarUrl: null,
        domain: 'record-shop',
        joinMode: 'open',
        subscribeEnabled: expect.any(Boolean),
        memberCountSummary: 'a handful of members',
      },
      canonicalUri: `https://record-shop.${webDomain}/store/vinyl`,
    });
    // The most recently published release that lists it; drafts and deleted ones do not count.
    const older = await createRelease(owner, spaceId, { title: 'Older', productIds: [product.id] });
    t.clock.offsetMs = 60_000;
    const newer = await createRelease(owner, spaceId, { title: 'Newer', productIds: [loose.id, product.id] });
    t.clock.offsetMs = 120_000;
    await createRelease(owner, spaceId, { title: 'Draft', productIds: [product.id], published: false });
    t.clock.offsetMs = 0;
    const withRelease = await anonymousGet(`/v1/spaces/record-shop/products/vinyl`);
    expect(withRelease.body.release).toEqual({ id: newer.id, slug: 'newer', title: 'Newer' });
    expect(Object.keys(withRelease.body)).toEqual(PAGE_KEYS);
    expect(Object.keys(withRelease.body.release)).toEqual(RELEASE_REFERENCE_KEYS);
    // The release is read as one row (LIMIT 1), however many releases list the product.
    const statements = await statementsDuring(() => anonymousGet(`/v1/spaces/record-shop/products/vinyl`));
    const releaseReads = statements.filter((statement) => /FROM "store_releases"/.test(statement));
    expect(releaseReads).toHaveLength(1);
    expect(releaseReads[0]).toMatch(/ORDER BY .* LIMIT 1$/);
    // Unpublishing a release takes it off at once (the next published one shows); republishing
    // brings it back (its first publication time kept).
    const releaseOfPage = async () =>
      (await anonymousGet(`/v1/spaces/record-shop/products/vinyl`)).body.release as unknown;
    const setPublished = (release: { id: string; title: string }, published: boolean) =>
      owner.put(`/spaces/${spaceId}/releases/${release.id}`, { title: release.title, published });
    expectStatus(await setPublished(newer, false), 200);
    expect(await releaseOfPage()).toEqual({ id: older.id, slug: 'older', title: 'Older' });
    expectStatus(await setPublished(newer, true), 200);
    expect(await releaseOfPage()).toEqual({ id: newer.id, slug: 'newer', title: 'Newer' });
    expectStatus(await setPublished(older, false), 200);
    expectStatus(await setPublished(newer, false), 200);
    expect(await releaseOfPage()).toBeNull();
    expectStatus(await setPublished(older, true), 200);
    expectStatus(await setPublished(newer, true), 200);
    expectStatus(await owner.delete(`/spaces/${spaceId}/releases/${newer.id}`), 204);
    const fallback = await anonymousGet(`/v1/spaces/record-shop/products/vinyl`);
    expect(fallback.body.release).toEqual({ id: older.id, slug: 'older', title: 'Older' });
    expectStatus(await setPublished(older, false), 200);
    expect(await releaseOfPage()).toBeNull();
  });

  it('hides unpublished, deleted, unknown and other spaces’ products; a renamed slug moves, the id stays', async () => {
    const spaceId = await namedSpace('hide-shop');
    const other = await namedSpace('other-shop');
    const product = await createProduct(owner, spaceId, { name: 'Mug' });
    await createProduct(owner, other, { name: 'Cap' });
    const path = `/v1/spaces/hide-shop/products`;
    expectStatus(await anonymousGet(`${path}/mug`), 200);
    for (const slug of ['cap', 'nothing', product.id, 'MUG', `${'m'.repeat(81)}`, 'm%20ug']) {
      expectNotFound(await anonymousGet(`${path}/${slug}`));
    }
    const update = (body: Record<string, unknown>) =>
      owner.put(`/spaces/${spaceId}/products/${product.id}`, {
        name: 'Mug',
        prices: [{ type: 'one-time', currency: 'EUR', amount: 1 }],
        published: true,
        ...body,
      });
    expectStatus(await update({ published: false }), 200);
    expectNotFound(await anonymousGet(`${path}/mug`));
    expect((await anonymousGet(path)).body.items).toEqual([]);
    expectStatus(await update({ published: true, slug: 'big-mug' }), 200);
    expectNotFound(await anonymousGet(`${path}/mug`));
    const moved = await anonymousGet(`${path}/big-mug`);
    expect(moved.body).toMatchObject({ id: product.id, slug: 'big-mug' });
    expect(moved.body.canonicalUri).toBe(`https://hide-shop.${webDomain}/store/big-mug`);
    expectStatus(await owner.delete(`/spaces/${spaceId}/products/${product.id}`), 204);
    expectNotFound(await anonymousGet(`${path}/big-mug`));
    expect((await anonymousGet(path)).body.items).toEqual([]);
    // A space that stops being public hides its store.
    const closing = await namedSpace('closing-shop');
    await createProduct(owner, closing, { name: 'Last' });
    expectStatus(
      await owner.put(`/spaces/${closing}/public-config`, { isPublic: false, joinMode: 'closed' }),
      200,
    );
    expectNotFound(await anonymousGet(`/v1/spaces/closing-shop/products`));
    expectNotFound(await anonymousGet(`/v1/spaces/closing-shop/products/last`));
  });

  it('lists releases newest first by first publication; serves one by id or slug with credits and published products', async () => {
    const spaceId = await namedSpace('label');
    const [one, two, three] = [
      await createProduct(owner, spaceId, { name: 'One' }),
      await createProduct(owner, spaceId, { name: 'Two' }),
      await createProduct(owner, spaceId, { name: 'Three' }),
    ];
    const publicPerson = t.caller();
    expectStatus(await publicPerson.post('/users', { handle: 'ada-prod', displayName: 'Ada' }), 201);
    expectStatus(await publicPerson.patch('/profile', { isPublic: true }), 200);
    const privatePerson = t.caller();
    expectStatus(await privatePerson.post('/users', { handle: 'bo-bass', displayName: 'Bo' }), 201);

    const first = await createRelease(owner, spaceId, { title: 'First' });
    t.clock.offsetMs = 60_000;
    const album = await createRelease(owner, spaceId, {
      title: 'The Album',
      description: 'Liner notes',
      credits: [
        { name: 'Ada', role: 'producer', did: publicPerson.did },
        { name: 'Bo', role: 'bass', did: privatePerson.did },
        { name: 'Cy', role: 'drums' },
      ],
      productIds: [three.id, one.id, two.id],
    });
    t.clock.offsetMs = 120_000;
    const draft = await createRelease(owner, spaceId, { title: 'Draft', published: false });
    // Publishing later puts it first; unpublishing and republishing keeps that first time.
    t.clock.offsetMs = 180_000;
    const draftPath = `/spaces/${spaceId}/releases/${draft.id}`;
    expectStatus(await owner.put(draftPath, { title: 'Draft', published: true }), 200);
    t.clock.offsetMs = 240_000;
    expectStatus(await owner.put(draftPath, { title: 'Draft', published: false }), 200);
    expectStatus(await owner.put(draftPath, { title: 'Draft', published: true }), 200);
    t.clock.offsetMs = 0;

    const listing = await anonymousGet(`/v1/spaces/label/releases`);
    expectStatus(listing, 200);
    expect(listing.headers['cache-control']).toBe('no-store');
    const items = listing.body.items as Record<string, unknown>[];
    expect(items.map((item) => item.id)).toEqual([draft.id, album.id, first.id]);
    for (const item of items) expect(Object.keys(item)).toEqual(RELEASE_CARD_KEYS);
    expect(items[1]).toEqual({
      id: album.id,
      slug: 'the-album',
      title: 'The Album',
      cover: null,
      publishedAt: album.publishedAt,
      canonicalUri: `https://label.${webDomain}/release/the-album`,
    });
    const byId = await anonymousGet(`/v1/spaces/label/releases/${album.id}`);
    const bySlug = await anonymousGet(`/v1/spaces/label/releases/the-album`);
    expectStatus(byId, 200);
    expect(byId.headers['cache-control']).toBe('no-store');
    expect(bySlug.body).toEqual(byId.body);
    expect(Object.keys(byId.body)).toEqual(FULL_RELEASE_KEYS);
    for (const credit of byId.body.credits) expect(Object.keys(credit)).toEqual(CREDIT_KEYS);
    expect(byId.body).toMatchObject({
      ...items[1],
      description: 'Liner notes',
      credits: [
        { name: 'Ada', role: 'producer', did: publicPerson.did },
        { name: 'Bo', role: 'bass', did: null },
        { name: 'Cy', role: 'drums', did: null },
      ],
    });
    const productIds = (body: { products: { id: string }[] }) => body.products.map((product) => product.id);
    expect(productIds(byId.body)).toEqual([three.id, one.id, two.id]);
    for (const product of byId.body.products) {
      expect(Object.keys(product)).toEqual(CARD_KEYS);
      for (const price of product.prices) expectPriceKeys(price);
    }

    // A product that is unpublished (or deleted) leaves the release at once, and comes back when republished.
    const setPublished = (product: ProductRecord, published: boolean) =>
      owner.put(`/spaces/${spaceId}/products/${product.id}`, {
        name: product.name,
        prices: [{ type: 'one-time', currency: 'EUR', amount: 1 }],
        published,
      });
    expectStatus(await setPublished(one, false), 200);
    expect(productIds((await anonymousGet(`/v1/spaces/label/releases/the-album`)).body)).toEqual([
      three.id,
      two.id,
    ]);
    expectStatus(await setPublished(one, true), 200);
    expect(productIds((await anonymousGet(`/v1/spaces/label/releases/the-album`)).body)).toEqual([
      three.id,
      one.id,
      two.id,
    ]);
    expectStatus(await owner.delete(`/spaces/${spaceId}/products/${three.id}`), 204);
    expect(productIds((await anonymousGet(`/v1/spaces/label/releases/the-album`)).body)).toEqual([
      one.id,
      two.id,
    ]);
  });

  it('hides unpublished, deleted, unknown and other spaces’ releases; a renamed slug moves, the id stays', async () => {
    const spaceId = await namedSpace('zines');
    const other = await namedSpace('comics');
    const release = await createRelease(owner, spaceId, { title: 'Issue One' });
    const foreign = await createRelease(owner, other, { title: 'Elsewhere' });
    const path = `/v1/spaces/zines/releases`;
    expectStatus(await anonymousGet(`${path}/issue-one`), 200);
    for (const reference of [
      foreign.id,
      'elsewhere',
      `release_${'0'.repeat(32)}`,
      'release_nope',
      'Issue-One',
    ]) {
      expectNotFound(await anonymousGet(`${path}/${reference}`));
    }
    const releasePath = `/spaces/${spaceId}/releases/${release.id}`;
    expectStatus(await owner.put(releasePath, { title: 'Issue One', published: false }), 200);
    expectNotFound(await anonymousGet(`${path}/issue-one`));
    expectNotFound(await anonymousGet(`${path}/${release.id}`));
    expect((await anonymousGet(path)).body.items).toEqual([]);
    expectStatus(await owner.put(releasePath, { title: 'Issue One', slug: 'issue-1', published: true }), 200);
    expectNotFound(await anonymousGet(`${path}/issue-one`));
    expect((await anonymousGet(`${path}/issue-1`)).body).toMatchObject({ id: release.id, slug: 'issue-1' });
    expectStatus(await owner.delete(releasePath), 204);
    expectNotFound(await anonymousGet(`${path}/issue-1`));
    expectNotFound(await anonymousGet(`${path}/${release.id}`));
    expect((await anonymousGet(path)).body.items).toEqual([]);
  });

  it('refuses bad pagination with a 400', async () => {
    const spaceId = await publicSpace(owner);
    for (const path of ['products', 'releases']) {
      expectInvalid(await anonymousGet(`/v1/spaces/${spaceId}/${path}?limit=0`), 'limit');
      expectInvalid(await anonymousGet(`/v1/spaces/${spaceId}/${path}?limit=101`), 'limit');
      expectInvalid(await anonymousGet(`/v1/spaces/${spaceId}/${path}?after=forged`), 'after');
    }
  });
});
