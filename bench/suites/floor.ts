import type { Scenario } from '../scenario-kit';

/**
 * The floor: what a request costs with no work of its own. The framework ceiling compares a Nest +
 * Express hello world with a raw node:http one (bench/ceiling/), in the same run as everything
 * else; the health routes are the app's own floor (each runs one `SELECT 1`, the pool check).
 */
export const floorScenarios: Scenario[] = [
  {
    name: 'framework ceiling (Nest + Express hello vs raw node:http hello)',
    group: 'ceiling',
    request: () => ({ method: 'GET', path: '/hello' }),
    against: { kind: 'ceiling' },
    // Two frameworks' headers (Express adds X-Powered-By and an ETag): the body and status only.
    compare: { bodyOnly: true },
  },
  {
    name: 'health live',
    group: 'floor',
    request: () => ({ method: 'GET', path: '/health/live' }),
    against: { kind: 'twin', handler: 'health live' },
  },
  {
    name: 'health ready',
    group: 'floor',
    request: () => ({ method: 'GET', path: '/health/ready' }),
    against: { kind: 'twin', handler: 'health ready' },
  },
];
