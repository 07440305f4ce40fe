import { ProductsService } from '../../../src/store';
import { bootSpaces, Caller, publicSpace, SpacesTestApp, walk } from '../spaces/support';
import { createProduct, createRelease, productBody } from './support';

interface Item {
  id: string;
}

/** Creates `count` items, a few at a time (each is a signed write). */
async function inBatches<T>(count: number, make: (index: number) => Promise<T>): Promise<T[]> {
  const made: T[] = [];
  for (let start = 0; start < count; start += 10) {
    const batch = Array.from({ length: Math.min(10, count - start) }, (_, offset) => make(start + offset));
    made.push(...(await Promise.all(batch)));
  }
  return made;
}

const PRODUCTS = 201;

describe('store listings: keyset walks (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  it('walks 201 published products forward and back by sortOrder then id, each once', async () => {
    const spaceId = await publicSpace(owner);
    // Three pages at the largest limit (100), so one has both a next and a previous page.
    // Written through the store's service (its routes and their proofs are store-admin's subject).
    const principal = { did: owner.did!, grant: owner.did! };
    const products = await inBatches(PRODUCTS, (index) =>
      t.app
        .get(ProductsService)
        .create(
          principal,
          spaceId,
          productBody({ name: `Product ${index}`, sortOrder: index % 7 }) as unknown as Parameters<
            ProductsService['create']
          >[2],
        ),
    );
    await createProduct(owner, spaceId, { name: 'Draft', published: false });
    const expected = products
      .map((product, index) => ({ id: product.id, sortOrder: index % 7 }))
      .sort((a, b) => a.sortOrder - b.sortOrder || a.id.localeCompare(b.id))
      .map((product) => product.id);
    for (const limit of [100, 17]) {
      const { forward, backward, pages } = await walk<Item>(
        t.anonymous,
        `/v1/spaces/${spaceId}/products`,
        limit,
      );
      expect(forward.map((item) => item.id)).toEqual(expected);
      expect(backward.map((item) => item.id)).toEqual(expected);
      expect(pages).toBe(Math.ceil(PRODUCTS / limit));
    }
  });

  it('walks releases newest publication first, forward and back', async () => {
    const spaceId = await publicSpace(owner);
    const releases = [];
    for (let index = 0; index < 25; index++) {
      t.clock.offsetMs = index * 1000;
      releases.push(await createRelease(owner, spaceId, { title: `Release ${index}` }));
    }
    t.clock.offsetMs = 0;
    const expected = releases.map((release) => release.id).reverse();
    const { forward, backward } = await walk<Item>(t.anonymous, `/v1/spaces/${spaceId}/releases`, 4);
    expect(forward.map((item) => item.id)).toEqual(expected);
    expect(backward.map((item) => item.id)).toEqual(expected);
  });
});
