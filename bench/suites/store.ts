import type { Scenario } from '../scenario-kit';
import { SMALL_SPACE_DOMAIN, STORE_PURCHASED_SLUG } from '../seed-plan';

/**
 * The store's public reads (docs/decisions/0078-the-store-and-events-benchmarks.md), on the small space's catalog (bench/seed.ts:
 * STORE_PRODUCTS products, three prices each, one release listing the first ten): a full page of
 * 100 product cards with their public prices, and the purchase page of a product listed in the
 * release (product, prices, release, the space's call-to-action).
 */
export const storeScenarios: Scenario[] = [
  {
    name: 'store product listing (100 products)',
    group: 'read',
    request: () => ({ method: 'GET', path: `/v1/spaces/${SMALL_SPACE_DOMAIN}/products?limit=100` }),
    against: { kind: 'twin', handler: 'store products' },
    target: { ratio: 0.6 },
  },
  {
    name: 'store purchase page',
    group: 'read',
    request: () => ({
      method: 'GET',
      path: `/v1/spaces/${SMALL_SPACE_DOMAIN}/products/${STORE_PURCHASED_SLUG}`,
    }),
    against: { kind: 'twin', handler: 'store purchase page' },
    target: { ratio: 0.6 },
  },
];
