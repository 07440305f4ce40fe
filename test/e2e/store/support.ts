import { Caller, expectStatus } from '../spaces/support';

/** A product body: one EUR one-time price unless told otherwise. */
export function productBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Poster',
    prices: [{ type: 'one-time', currency: 'EUR', amount: 1500 }],
    published: true,
    ...overrides,
  };
}

export interface ProductRecord {
  id: string;
  slug: string;
  name: string;
  prices: { id: string; type: string; currency: string; amount: number; archived: boolean }[];
  published: boolean;
  [member: string]: unknown;
}

export interface ReleaseRecord {
  id: string;
  slug: string;
  title: string;
  productIds: string[];
  published: boolean;
  publishedAt: string | null;
  [member: string]: unknown;
}

export async function createProduct(
  admin: Caller,
  spaceId: string,
  overrides: Record<string, unknown> = {},
): Promise<ProductRecord> {
  const response = await admin.post(`/spaces/${spaceId}/products`, productBody(overrides));
  expectStatus(response, 201);
  return response.body as ProductRecord;
}

export async function createRelease(
  admin: Caller,
  spaceId: string,
  body: Record<string, unknown>,
): Promise<ReleaseRecord> {
  const response = await admin.post(`/spaces/${spaceId}/releases`, {
    title: 'Record',
    published: true,
    ...body,
  });
  expectStatus(response, 201);
  return response.body as ReleaseRecord;
}

/** Store rows of every kind, to show a refused write stored nothing. */
export async function storeRowCounts(query: (sql: string) => Promise<{ n: number }[]>): Promise<number[]> {
  const tables = ['store_products', 'store_product_prices', 'store_releases', 'store_release_products'];
  return Promise.all(
    tables.map(async (table) => (await query(`SELECT count(*)::int AS n FROM "${table}"`))[0].n),
  );
}
