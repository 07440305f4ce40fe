import { refuseWrites } from '../../support/faults';
import { bootSpaces, Caller, expectStatus, publicSpace, SpacesTestApp } from '../spaces/support';
import { createProduct, createRelease, productBody, storeRowCounts } from './support';

/** Each store write is one transaction: a failure of its last statement leaves nothing behind. */
describe('store writes are atomic (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;
  let spaceId: string;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
    spaceId = await publicSpace(owner);
  });

  afterAll(async () => {
    await t.close();
  });

  const counts = () => storeRowCounts((sql) => t.dataSource.query(sql));

  async function failing<T>(table: string, event: string, write: () => Promise<T>): Promise<T> {
    const repair = await refuseWrites(t.dataSource, table, event);
    try {
      return await write();
    } finally {
      await repair();
    }
  }

  it('a product whose prices fail to insert is not created; an update keeps the old record and prices', async () => {
    const before = await counts();
    const refused = await failing('store_product_prices', 'INSERT', () =>
      owner.post(`/spaces/${spaceId}/products`, productBody({ name: 'Half' })),
    );
    expectStatus(refused, 500);
    expect(await counts()).toEqual(before);

    const product = await createProduct(owner, spaceId, { name: 'Whole' });
    const update = await failing('store_product_prices', 'INSERT', () =>
      owner.put(
        `/spaces/${spaceId}/products/${product.id}`,
        productBody({ name: 'Changed', slug: 'changed' }),
      ),
    );
    expectStatus(update, 500);
    const page = await t.anonymous.get(`/v1/spaces/${spaceId}/products/whole`);
    expectStatus(page, 200);
    expect(page.body).toMatchObject({ name: 'Whole', prices: [{ id: product.prices[0].id, amount: 1500 }] });
  });

  it('a release whose product list fails to write is not created; a product delete that fails keeps it listed', async () => {
    const product = await createProduct(owner, spaceId, { name: 'Listed' });
    const before = await counts();
    const refused = await failing('store_release_products', 'INSERT', () =>
      owner.post(`/spaces/${spaceId}/releases`, { title: 'Half', published: true, productIds: [product.id] }),
    );
    expectStatus(refused, 500);
    expect(await counts()).toEqual(before);

    const release = await createRelease(owner, spaceId, { title: 'Whole', productIds: [product.id] });
    const removal = await failing('store_release_products', 'DELETE', () =>
      owner.delete(`/spaces/${spaceId}/products/${product.id}`),
    );
    expectStatus(removal, 500);
    const read = await t.anonymous.get(`/v1/spaces/${spaceId}/releases/${release.id}`);
    expect(read.body.products.map((item: { id: string }) => item.id)).toEqual([product.id]);
  });
});
