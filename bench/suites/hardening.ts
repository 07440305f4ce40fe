import type { Scenario } from '../scenario-kit';

/**
 * Wide bodies must not stall a replica (issue 11 item 1): a 50,000-member JSON body (about 500 KiB,
 * under the 1 MiB limit) posted to the anonymous relay ingest is refused by the body-shape bound
 * before validation. "health ready, wide bodies alongside" measures the readiness read while four
 * connections keep posting such bodies; compared with "health ready" measured alone in the same
 * run, its p99 should not move.
 */
const WIDE_BODY = `{${Array.from({ length: 50_000 }, (_, index) => `"m${index}":0`).join(',')}}`;

export const hardeningScenarios: Scenario[] = [
  {
    name: 'health ready, wide bodies alongside',
    method: 'GET',
    path: '/health/ready',
    relativeTo: 'health ready',
    alongside: {
      method: 'POST',
      path: '/relay/proof/v1/operations',
      body: WIDE_BODY,
      headers: { 'content-type': 'application/json' },
      connections: 4,
    },
  },
];
