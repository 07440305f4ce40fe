import { Response } from 'supertest';
import {
  addMember,
  bootSpaces,
  Caller,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  newDid,
  publicSpace,
  SpacesTestApp,
} from '../spaces/support';
import { createProduct, createRelease, productBody, ProductRecord, storeRowCounts } from './support';

const MISSING_PRODUCT = `product_${'0'.repeat(32)}`;

describe('store administration: products and releases (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  const counts = () => storeRowCounts((sql) => t.dataSource.query(sql));

  /** A new item's id in a live space, or an id no space has where the space is gone. */
  async function itemIn(spaceId: string, path: 'products' | 'releases', body: object): Promise<string> {
    const created = await owner.post(`/spaces/${spaceId}/${path}`, body);
    return created.status === 201 ? (created.body.id as string) : MISSING_PRODUCT;
  }

  describe('who may write', () => {
    /** Admins (and the owner) only; members 403; strangers 403 on a public space, the 404 on a private one. */
    async function expectAdminsOnly(
      call: (caller: Caller, spaceId: string) => Promise<Response>,
      okStatus: number,
    ): Promise<void> {
      // The spaces are independent: set up and checked side by side.
      const [open, hidden, deleted] = await Promise.all([
        publicSpace(owner),
        createSpace(owner).then((space) => space.id),
        publicSpace(owner),
      ]);
      const checkIn = async (spaceId: string, strangerStatus: 403 | 404) => {
        const member = t.caller();
        const admin = t.caller();
        // One after the other: a new invite of the owner revokes the last one.
        await addMember(owner, spaceId, member);
        await addMember(owner, spaceId, admin);
        expectStatus(await owner.put(`/spaces/${spaceId}/members/${admin.did}`, { role: 'admin' }), 200);
        expectStatus(await call(member, spaceId), 403);
        const refused = await call(t.caller(), spaceId);
        if (strangerStatus === 404) expectNotFound(refused);
        else expectStatus(refused, 403);
        expectStatus(await call(t.anonymous, spaceId), 401);
        expectStatus(await call(admin, spaceId), okStatus);
      };
      await Promise.all([checkIn(open, 403), checkIn(hidden, 404)]);
      expectStatus(await owner.delete(`/spaces/${deleted}`), 204);
      expectNotFound(await call(owner, deleted));
      expectNotFound(await call(owner, `space_${'0'.repeat(32)}`));
    }

    it('product routes', async () => {
      await expectAdminsOnly(
        (caller, spaceId) => caller.post(`/spaces/${spaceId}/products`, productBody()),
        201,
      );
      await expectAdminsOnly(async (caller, spaceId) => {
        const productId = await itemIn(spaceId, 'products', productBody());
        return caller.put(`/spaces/${spaceId}/products/${productId}`, productBody({ name: 'Renamed' }));
      }, 200);
      await expectAdminsOnly(async (caller, spaceId) => {
        const productId = await itemIn(spaceId, 'products', productBody());
        return caller.delete(`/spaces/${spaceId}/products/${productId}`);
      }, 204);
    });

    it('release routes', async () => {
      await expectAdminsOnly(
        (caller, spaceId) => caller.post(`/spaces/${spaceId}/releases`, { title: 'A', published: true }),
        201,
      );
      await expectAdminsOnly(async (caller, spaceId) => {
        const releaseId = await itemIn(spaceId, 'releases', { title: 'A', published: true });
        return caller.put(`/spaces/${spaceId}/releases/${releaseId}`, { title: 'B', published: false });
      }, 200);
      await expectAdminsOnly(async (caller, spaceId) => {
        const releaseId = await itemIn(spaceId, 'releases', { title: 'A', published: true });
        return caller.delete(`/spaces/${spaceId}/releases/${releaseId}`);
      }, 204);
    });

    it('unknown, malformed, deleted and other spaces’ items are the one 404', async () => {
      const spaceId = await publicSpace(owner);
      const other = await publicSpace(owner);
      const foreign = await createProduct(owner, other);
      const foreignRelease = await createRelease(owner, other, {});
      const gone = await createProduct(owner, spaceId);
      expectStatus(await owner.delete(`/spaces/${spaceId}/products/${gone.id}`), 204);
      for (const productId of [MISSING_PRODUCT, 'nope', foreign.id, gone.id]) {
        expectNotFound(await owner.put(`/spaces/${spaceId}/products/${productId}`, productBody()));
        expectNotFound(await owner.delete(`/spaces/${spaceId}/products/${productId}`));
      }
      for (const releaseId of [`release_${'0'.repeat(32)}`, 'nope', foreignRelease.id, foreign.id]) {
        expectNotFound(
          await owner.put(`/spaces/${spaceId}/releases/${releaseId}`, { title: 'x', published: true }),
        );
        expectNotFound(await owner.delete(`/spaces/${spaceId}/releases/${releaseId}`));
      }
    });
  });

  describe('products', () => {
    let spaceId: string;

    beforeAll(async () => {
      spaceId = await publicSpace(owner);
    });

    it('creates a product and answers the written record with every price', async () => {
      const response = await owner.post(`/spaces/${spaceId}/products`, {
        name: '  Tour Shirt  ',
        description: 'Black, cotton',
        sortOrder: 3,
        published: false,
        soldOut: true,
        purchasable: false,
        coverId: null,
        prices: [
          { type: 'one-time', currency: 'EUR', amount: 2500 },
          { type: 'pay-what-you-want', currency: 'USD', amount: 0, suggestedAmount: 1000 },
          { type: 'recurring', currency: 'JPY', amount: 500, interval: 'month', archived: true },
        ],
      });
      expectStatus(response, 201);
      const product = response.body as ProductRecord;
      expect(product).toEqual({
        id: expect.stringMatching(/^product_[0-9a-f]{32}$/),
        spaceId,
        slug: 'tour-shirt',
        name: 'Tour Shirt',
        description: 'Black, cotton',
        cover: null,
        sortOrder: 3,
        prices: [
          {
            id: expect.stringMatching(/^price_[0-9a-f]{32}$/),
            type: 'one-time',
            currency: 'EUR',
            amount: 2500,
            archived: false,
          },
          {
            id: expect.stringMatching(/^price_/),
            type: 'pay-what-you-want',
            currency: 'USD',
            amount: 0,
            suggestedAmount: 1000,
            archived: false,
          },
          {
            id: expect.stringMatching(/^price_/),
            type: 'recurring',
            currency: 'JPY',
            amount: 500,
            interval: 'month',
            archived: true,
          },
        ],
        isSoldOut: true,
        purchasable: false,
        published: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const defaults = await createProduct(owner, spaceId, { name: 'Defaults', prices: [] });
      expect(defaults).toMatchObject({
        description: null,
        sortOrder: 0,
        isSoldOut: false,
        purchasable: true,
        prices: [],
      });
    });

    it('derives slugs from names (accents dropped, -2 when taken, a fallback when nothing is left)', async () => {
      expect((await createProduct(owner, spaceId, { name: 'Über Bag!' })).slug).toBe('uber-bag');
      expect((await createProduct(owner, spaceId, { name: 'uber bag' })).slug).toBe('uber-bag-2');
      expect((await createProduct(owner, spaceId, { name: '東京' })).slug).toBe('product');
      const long = await createProduct(owner, spaceId, { name: 'x'.repeat(200) });
      expect(long.slug.length).toBeLessThanOrEqual(80);
    });

    it('derives a slug of at most 80 characters from a long name whose first 999 candidates are taken', async () => {
      const space = await publicSpace(owner);
      const name = 'x'.repeat(200);
      for (const [table, column, path, body] of [
        ['store_products', 'name', 'products', productBody({ name })],
        ['store_releases', 'title', 'releases', { title: name, published: true }],
      ] as const) {
        // The base (cut to 76) and base-2 … base-999.
        await t.dataSource.query(
          `INSERT INTO "${table}" (id, space_id, slug, ${column}, published)
           SELECT gen_random_uuid(), $1, CASE WHEN n = 1 THEN $2 ELSE $2 || '-' || n END, 'taken', false
           FROM generate_series(1, 999) AS n`,
          [space.slice('space_'.length), 'x'.repeat(76)],
        );
        const first = await owner.post(`/spaces/${space}/${path}`, body);
        expectStatus(first, 201);
        expect(first.body.slug).toBe(`${'x'.repeat(75)}-1000`);
        // The cut candidate taken counts as taken.
        const second = await owner.post(`/spaces/${space}/${path}`, body);
        expectStatus(second, 201);
        expect(second.body.slug).toBe(`${'x'.repeat(75)}-1001`);
      }
    });

    it('concurrent creates with the same name all succeed with distinct derived slugs', async () => {
      const made = await Promise.all(
        Array.from({ length: 6 }, () =>
          owner.post(`/spaces/${spaceId}/products`, productBody({ name: 'Rush' })),
        ),
      );
      for (const response of made) expectStatus(response, 201);
      const slugs = made.map((response) => response.body.slug as string).sort();
      expect(new Set(slugs).size).toBe(6);
      expect(slugs).toContain('rush');
    });

    it('a taken slug is 409 (another space may use it); renaming and deleting free the old one; the id stays', async () => {
      const first = await createProduct(owner, spaceId, { slug: 'zine' });
      const taken = await owner.post(`/spaces/${spaceId}/products`, productBody({ slug: 'zine' }));
      expectStatus(taken, 409);
      expect(taken.body.code).toBe('E_CONFLICT');
      const second = await createProduct(owner, spaceId, { slug: 'zine-two' });
      expectStatus(
        await owner.put(`/spaces/${spaceId}/products/${second.id}`, productBody({ slug: 'zine' })),
        409,
      );
      expect((await createProduct(owner, await publicSpace(owner), { slug: 'zine' })).slug).toBe('zine');

      const renamed = await owner.put(
        `/spaces/${spaceId}/products/${first.id}`,
        productBody({ slug: 'zine-one' }),
      );
      expectStatus(renamed, 200);
      expect(renamed.body).toMatchObject({ id: first.id, slug: 'zine-one' });
      const reused = await owner.put(
        `/spaces/${spaceId}/products/${second.id}`,
        productBody({ slug: 'zine' }),
      );
      expectStatus(reused, 200);
      expectStatus(await owner.delete(`/spaces/${spaceId}/products/${second.id}`), 204);
      expect((await createProduct(owner, spaceId, { slug: 'zine' })).slug).toBe('zine');
      // PUT without a slug keeps it.
      const kept = await owner.put(
        `/spaces/${spaceId}/products/${first.id}`,
        productBody({ name: 'Other name' }),
      );
      expect(kept.body).toMatchObject({ slug: 'zine-one', name: 'Other name' });
    });

    it('PUT replaces the prices: named ones keep their id, others are new, missing ones go', async () => {
      const product = await createProduct(owner, spaceId, {
        prices: [
          { type: 'one-time', currency: 'EUR', amount: 100 },
          { type: 'one-time', currency: 'USD', amount: 200 },
        ],
      });
      const [eur, usd] = product.prices;
      const response = await owner.put(
        `/spaces/${spaceId}/products/${product.id}`,
        productBody({
          description: 'now described',
          prices: [
            { id: usd.id, type: 'one-time', currency: 'USD', amount: 250, archived: true },
            { type: 'pay-what-you-want', currency: 'GBP', amount: 100 },
          ],
        }),
      );
      expectStatus(response, 200);
      const prices = (response.body as ProductRecord).prices;
      expect(prices.map((price) => [price.currency, price.amount, price.archived])).toEqual([
        ['USD', 250, true],
        ['GBP', 100, false],
      ]);
      expect(prices[0].id).toBe(usd.id);
      expect(prices.map((price) => price.id)).not.toContain(eur.id);
      // An id of a removed price, of another product, twice, or of another kind is a 400.
      const other = await createProduct(owner, spaceId);
      for (const id of [eur.id, other.prices[0].id, 'price_nope', MISSING_PRODUCT]) {
        const refused = await owner.put(
          `/spaces/${spaceId}/products/${product.id}`,
          productBody({ prices: [{ id, type: 'one-time', currency: 'EUR', amount: 1 }] }),
        );
        expectInvalid(refused, 'prices.0.id');
      }
      const twice = await owner.put(
        `/spaces/${spaceId}/products/${product.id}`,
        productBody({
          prices: [
            { id: usd.id, type: 'one-time', currency: 'EUR', amount: 1 },
            { id: usd.id, type: 'one-time', currency: 'EUR', amount: 2 },
          ],
        }),
      );
      expectInvalid(twice, 'prices.1.id');
      const created = await owner.post(
        `/spaces/${spaceId}/products`,
        productBody({ prices: [{ id: usd.id, type: 'one-time', currency: 'EUR', amount: 1 }] }),
      );
      expectInvalid(created, 'prices.0.id');
      // null clears the description.
      const cleared = await owner.put(
        `/spaces/${spaceId}/products/${product.id}`,
        productBody({ description: null }),
      );
      expect(cleared.body.description).toBeNull();
    });

    const price = (overrides: Record<string, unknown>) => ({
      type: 'one-time',
      currency: 'EUR',
      amount: 100,
      ...overrides,
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a negative amount', { prices: [price({ amount: -1 })] }, 'prices.0.amount'],
      ['a fractional amount', { prices: [price({ amount: 1.5 })] }, 'prices.0.amount'],
      ['an amount as a string', { prices: [price({ amount: '100' })] }, 'prices.0.amount'],
      ['an amount past the limit', { prices: [price({ amount: 1e13 })] }, 'prices.0.amount'],
      ['a lower-case currency', { prices: [price({ currency: 'usd' })] }, 'prices.0.currency'],
      ['a currency of four characters', { prices: [price({ currency: 'XXX1' })] }, 'prices.0.currency'],
      ['an unknown currency', { prices: [price({ currency: 'ABC' })] }, 'prices.0.currency'],
      ['no currency', { prices: [{ type: 'one-time', amount: 1 }] }, 'prices.0.currency'],
      ['an unknown type', { prices: [price({ type: 'free' })] }, 'prices.0.type'],
      [
        'a recurring price without an interval',
        { prices: [price({ type: 'recurring' })] },
        'prices.0.interval',
      ],
      [
        'a recurring price with a weekly interval',
        { prices: [price({ type: 'recurring', interval: 'week' })] },
        'prices.0.interval',
      ],
      ['an interval on a one-time price', { prices: [price({ interval: 'month' })] }, 'prices.0.interval'],
      [
        'an interval on a pay-what-you-want price',
        { prices: [price({ type: 'pay-what-you-want', interval: 'year' })] },
        'prices.0.interval',
      ],
      [
        'a suggested amount below the minimum',
        { prices: [price({ type: 'pay-what-you-want', amount: 500, suggestedAmount: 499 })] },
        'prices.0.suggestedAmount',
      ],
      [
        'a suggested amount on a one-time price',
        { prices: [price({ suggestedAmount: 500 })] },
        'prices.0.suggestedAmount',
      ],
      [
        'a fractional suggested amount',
        { prices: [price({ type: 'pay-what-you-want', suggestedAmount: 100.5 })] },
        'prices.0.suggestedAmount',
      ],
      ['archived not a boolean', { prices: [price({ archived: 'yes' })] }, 'prices.0.archived'],
      ['21 prices', { prices: Array.from({ length: 21 }, () => price({})) }, 'prices'],
      ['1,000 prices', { prices: Array.from({ length: 1000 }, () => price({})) }, 'prices'],
      ['a price that is not an object', { prices: ['EUR 1'] }, 'prices'],
      ['no prices', { prices: undefined }, 'prices'],
      ['a slug with spaces', { slug: 'my product' }, 'slug'],
      ['an upper-case slug', { slug: 'Poster' }, 'slug'],
      ['a slug of 81 characters', { slug: 'a'.repeat(81) }, 'slug'],
      ['a slug of 200 characters', { slug: 'a'.repeat(200) }, 'slug'],
      ['an empty slug', { slug: '' }, 'slug'],
      ['a null slug', { slug: null }, 'slug'],
      ['an empty name', { name: '   ' }, 'name'],
      ['a name of 201 characters', { name: 'n'.repeat(201) }, 'name'],
      ['published missing', { published: undefined }, 'published'],
      ['a sortOrder that is not an integer', { sortOrder: 1.5 }, 'sortOrder'],
      ['a sortOrder past 1,000,000', { sortOrder: 1_000_001 }, 'sortOrder'],
      ['a sortOrder below -1,000,000', { sortOrder: -1_000_001 }, 'sortOrder'],
      ['a null sortOrder', { sortOrder: null }, 'sortOrder'],
      ['a null soldOut', { soldOut: null }, 'soldOut'],
      ['a description of 10,001 characters', { description: 'd'.repeat(10_001) }, 'description'],
      ['soldOut not a boolean', { soldOut: 'no' }, 'soldOut'],
      ['purchasable not a boolean', { purchasable: 'yes' }, 'purchasable'],
      ['purchasable as a number', { purchasable: 1 }, 'purchasable'],
      ['a null purchasable', { purchasable: null }, 'purchasable'],
      ['a cover naming no upload of the caller', { coverId: `media_${'a'.repeat(32)}` }, 'coverId'],
      ['a malformed cover', { coverId: 'cover.png' }, 'coverId'],
      ['an unknown member', { color: 'red' }, 'color'],
    ])('refuses %s with a 400 naming it, storing nothing', async (_case, overrides, path) => {
      const before = await counts();
      const product = await createProduct(owner, spaceId);
      const afterCreate = await counts();
      expectInvalid(await owner.post(`/spaces/${spaceId}/products`, productBody(overrides)), path);
      expectInvalid(
        await owner.put(`/spaces/${spaceId}/products/${product.id}`, productBody(overrides)),
        path,
      );
      expect(await counts()).toEqual(afterCreate);
      expect(afterCreate).not.toEqual(before);
      const unchanged = await t.dataSource.query('SELECT name, slug FROM store_products WHERE id = $1', [
        product.id.slice('product_'.length),
      ]);
      expect(unchanged).toEqual([{ name: 'Poster', slug: product.slug }]);
    });

    it('accepts every price rule at its edge', async () => {
      const product = await createProduct(owner, spaceId, {
        prices: [
          price({ amount: 0 }),
          price({ type: 'pay-what-you-want', amount: 300, suggestedAmount: 300 }),
          price({ type: 'pay-what-you-want', amount: 300, suggestedAmount: null }),
          price({ type: 'recurring', interval: 'year', currency: 'CHF' }),
          price({ interval: null, suggestedAmount: null, currency: 'KWD', amount: 1_000_000_000_000 }),
          ...Array.from({ length: 15 }, () => price({})),
        ],
      });
      expect(product.prices).toHaveLength(20);
      expect(product.prices[2]).not.toHaveProperty('suggestedAmount');
      expect(product.prices[4].amount).toBe(1_000_000_000_000);
    });

    it('accepts sortOrder, description and name at their limits', async () => {
      for (const sortOrder of [1_000_000, -1_000_000]) {
        const product = await createProduct(owner, spaceId, {
          name: 'n'.repeat(200),
          description: 'd'.repeat(10_000),
          sortOrder,
          purchasable: false,
        });
        expect(product).toMatchObject({ sortOrder, purchasable: false });
        expect(product.description).toHaveLength(10_000);
      }
    });
  });

  describe('releases', () => {
    let spaceId: string;

    beforeAll(async () => {
      spaceId = await publicSpace(owner);
    });

    it('creates a release with credits and products in order; answers the written record', async () => {
      const a = await createProduct(owner, spaceId, { name: 'A' });
      const b = await createProduct(owner, spaceId, { name: 'B', published: false });
      const did = newDid();
      const response = await owner.post(`/spaces/${spaceId}/releases`, {
        title: 'First Record',
        description: 'Ten songs',
        credits: [
          { name: 'Ada', role: 'producer', did },
          { name: 'Bo', role: 'artwork' },
        ],
        productIds: [b.id, a.id],
        published: true,
        coverId: null,
      });
      expectStatus(response, 201);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^release_[0-9a-f]{32}$/),
        spaceId,
        slug: 'first-record',
        title: 'First Record',
        description: 'Ten songs',
        cover: null,
        credits: [
          { name: 'Ada', role: 'producer', did },
          { name: 'Bo', role: 'artwork', did: null },
        ],
        productIds: [b.id, a.id],
        published: true,
        publishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const draft = await createRelease(owner, spaceId, { title: 'First record', published: false });
      expect(draft).toMatchObject({ slug: 'first-record-2', publishedAt: null, productIds: [], credits: [] });
    });

    it('keeps the first publication time; PUT keeps what it does not send; deleting frees the slug', async () => {
      const product = await createProduct(owner, spaceId);
      const release = await createRelease(owner, spaceId, {
        title: 'Zine',
        slug: 'zine',
        productIds: [product.id],
      });
      t.clock.offsetMs = 3_600_000;
      const path = `/spaces/${spaceId}/releases/${release.id}`;
      expectStatus(await owner.put(path, { title: 'Zine', published: false }), 200);
      const again = await owner.put(path, { title: 'Zine 2', published: true });
      t.clock.offsetMs = 0;
      expect(again.body).toMatchObject({
        title: 'Zine 2',
        slug: 'zine',
        publishedAt: release.publishedAt,
        productIds: [product.id],
      });
      expectStatus(
        await owner.post(`/spaces/${spaceId}/releases`, { title: 'x', slug: 'zine', published: true }),
        409,
      );
      const renamed = await owner.put(path, {
        title: 'Zine 2',
        slug: 'zine-two',
        published: true,
        productIds: [],
      });
      expect(renamed.body).toMatchObject({ id: release.id, slug: 'zine-two', productIds: [] });
      const taker = await createRelease(owner, spaceId, { title: 'x', slug: 'zine' });
      expectStatus(await owner.delete(`/spaces/${spaceId}/releases/${taker.id}`), 204);
      expect((await createRelease(owner, spaceId, { title: 'y', slug: 'zine' })).slug).toBe('zine');
      // A deleted product leaves the release's list.
      const listed = await createProduct(owner, spaceId);
      const withProduct = await owner.put(path, {
        title: 'Zine 2',
        published: true,
        productIds: [listed.id],
      });
      expect(withProduct.body.productIds).toEqual([listed.id]);
      expectStatus(await owner.delete(`/spaces/${spaceId}/products/${listed.id}`), 204);
      const after = await owner.put(path, { title: 'Zine 3', published: true });
      expect(after.body.productIds).toEqual([]);
    });

    const credit = (overrides: Record<string, unknown> = {}) => ({
      name: 'Ada',
      role: 'producer',
      ...overrides,
    });

    it.each<
      [
        string,
        (ids: { foreign: string; deleted: string; own: string; taken: string }) => Record<string, unknown>,
        string,
      ]
    >([
      ['a product of another space', (ids) => ({ productIds: [ids.own, ids.foreign] }), 'productIds.1'],
      ['a deleted product', (ids) => ({ productIds: [ids.deleted] }), 'productIds.0'],
      ['an unknown product', () => ({ productIds: [MISSING_PRODUCT] }), 'productIds.0'],
      ['a malformed product id', () => ({ productIds: ['poster'] }), 'productIds.0'],
      ['a product twice', (ids) => ({ productIds: [ids.own, ids.own] }), 'productIds.1'],
      ['a product id that is not a string', () => ({ productIds: [7] }), 'productIds'],
      ['101 products', (ids) => ({ productIds: Array.from({ length: 101 }, () => ids.own) }), 'productIds'],
      ['a credit without a role', () => ({ credits: [{ name: 'Ada' }] }), 'credits.0.role'],
      ['a credit with an empty name', () => ({ credits: [{ name: ' ', role: 'x' }] }), 'credits.0.name'],
      [
        'a credit with a malformed DID',
        () => ({ credits: [{ name: 'Ada', role: 'x', did: 'did:web:ada' }] }),
        'credits.0.did',
      ],
      ['101 credits', () => ({ credits: Array.from({ length: 101 }, () => credit()) }), 'credits'],
      [
        'a credit name of 201 characters',
        () => ({ credits: [credit({ name: 'n'.repeat(201) })] }),
        'credits.0.name',
      ],
      [
        'a credit role of 201 characters',
        () => ({ credits: [credit({ role: 'r'.repeat(201) })] }),
        'credits.0.role',
      ],
      ['a credit that is not an object', () => ({ credits: ['Ada'] }), 'credits'],
      // Optional lists: absent keeps (PUT) or is empty (POST); null is not a list.
      ['null credits', () => ({ credits: null }), 'credits'],
      ['null productIds', () => ({ productIds: null }), 'productIds'],
      ['a description of 10,001 characters', () => ({ description: 'd'.repeat(10_001) }), 'description'],
      ['a slug with spaces', () => ({ slug: 'first record' }), 'slug'],
      ['a slug of 200 characters', () => ({ slug: 'r'.repeat(200) }), 'slug'],
      ['a title of 201 characters', () => ({ title: 't'.repeat(201) }), 'title'],
      ['published missing', () => ({ published: undefined }), 'published'],
      ['published not a boolean', () => ({ published: 'true' }), 'published'],
      ['a cover naming no upload of the caller', () => ({ coverId: `media_${'b'.repeat(32)}` }), 'coverId'],
      // Not a 400: another live release's slug is 409 on POST and PUT alike.
      ['a slug another release has', (ids) => ({ slug: ids.taken }), '409'],
    ])('refuses %s (a 400 naming it, or the 409), storing nothing', async (_case, body, path) => {
      const own = await createProduct(owner, spaceId);
      const foreign = await createProduct(owner, await publicSpace(owner));
      const deleted = await createProduct(owner, spaceId);
      expectStatus(await owner.delete(`/spaces/${spaceId}/products/${deleted.id}`), 204);
      const taken = await createRelease(owner, spaceId, { title: 'Taken' });
      const release = await createRelease(owner, spaceId, { title: 'Kept', productIds: [own.id] });
      const before = await counts();
      const request = {
        title: 'Record',
        published: true,
        ...body({ foreign: foreign.id, deleted: deleted.id, own: own.id, taken: taken.slug }),
      };
      const refused = [
        await owner.post(`/spaces/${spaceId}/releases`, request),
        await owner.put(`/spaces/${spaceId}/releases/${release.id}`, request),
      ];
      for (const response of refused) {
        if (path !== '409') expectInvalid(response, path);
        else {
          expectStatus(response, 409);
          expect(response.body.code).toBe('E_CONFLICT');
        }
      }
      expect(await counts()).toEqual(before);
      const kept = await owner.put(`/spaces/${spaceId}/releases/${release.id}`, {
        title: 'Kept',
        published: true,
      });
      expect(kept.body).toMatchObject({
        slug: release.slug,
        description: null,
        credits: [],
        productIds: [own.id],
      });
    });

    it('accepts credits, description and slug at their limits', async () => {
      const credits = Array.from({ length: 100 }, (_, index) =>
        credit({ name: `${index}`.padEnd(200, 'n'), role: 'r'.repeat(200) }),
      );
      const release = await createRelease(owner, spaceId, {
        title: 't'.repeat(200),
        slug: 's'.repeat(80),
        description: 'd'.repeat(10_000),
        credits,
      });
      expect(release.credits).toEqual(credits.map((item) => ({ ...item, did: null })));
      expect(release.slug).toBe('s'.repeat(80));
      expect(release.description).toHaveLength(10_000);
    });
  });
});
