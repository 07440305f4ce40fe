import type { Scenario } from '../scenario-kit';

/**
 * Wide bodies must not stall a replica (docs/decisions/0022-request-shape-bodies-paths-methods-query-parameters.md): a 50,000-member JSON body (about 500 KiB,
 * under the 1 MiB limit) posted to the anonymous relay ingest is refused by the body-shape bound
 * before it is parsed. "health ready with wide bodies alongside" measures the readiness read while
 * clients post 50 such bodies a second (25 MiB/s; before the fix each cost a second of CPU);
 * compared with "health ready" measured alone in the same run, its p99 should not move.
 * "..., wide bodies flat out" posts them as fast as four connections can: the read then shares the
 * machine with receiving and refusing hundreds of MiB a second, which no body check removes.
 * Both are optional (a check of the body-shape bound, not a target against the twin):
 * `BENCH_SCENARIOS=wide` runs them.
 */
const WIDE_BODY = `{${Array.from({ length: 50_000 }, (_, index) => `"m${index}":0`).join(',')}}`;

export const hardeningScenarios: Scenario[] = [
  {
    name: 'health ready with wide bodies alongside',
    group: 'hardening',
    optional: true,
    request: () => ({ method: 'GET', path: '/health/ready' }),
    against: { kind: 'none' },
    relativeTo: 'health ready',
    alongside: {
      method: 'POST',
      path: '/relay/proof/v1/operations',
      body: WIDE_BODY,
      headers: { 'content-type': 'application/json' },
      connections: 4,
      requestsPerSecond: 50,
    },
  },
  {
    name: 'health ready with wide bodies flat out',
    group: 'hardening',
    optional: true,
    request: () => ({ method: 'GET', path: '/health/ready' }),
    against: { kind: 'none' },
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
