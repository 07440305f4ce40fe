import type { Scenario } from './scenario-kit';
import { hardeningScenarios } from './suites/hardening';
import { limiterScenarios } from './suites/limiter';
import { profileScenarios } from './suites/profile';
import { spacesScenarios } from './suites/spaces';

export type {
  BaselineContext,
  BaselineHandler,
  BaselineResponse,
  Prepared,
  Scenario,
  ServiceBaseline,
  SetupContext,
} from './scenario-kit';

/**
 * What the benchmark runs. Each scenario is fired at the built service and at its baseline: a bare
 * node:http + pg handler doing the same essential work (so the ratio shows the framework's
 * overhead rather than the machine's speed), or the service itself in another environment.
 *
 * Adding one: append an entry (or a family in bench/suites/). `path` is sent verbatim (include the
 * query string); `body`, when not a string, is sent as JSON. A bare baseline handler gets the pool
 * and the request and returns the status (default 200) and the JSON body; the bare server routes by
 * the scenario name (header x-bench-scenario), so paths may differ between the two sides. Every
 * response must be 2xx or the run fails. See scenario-kit.ts for `env`, `setup` and `relativeTo`.
 */
export const scenarios: Scenario[] = [
  {
    // The service's readiness check runs `SELECT 1` on its pool.
    name: 'health ready',
    method: 'GET',
    path: '/health/ready',
    baseline: async ({ pool }) => {
      await pool.query('SELECT 1');
      return { body: { status: 'ok' } };
    },
  },
  {
    // No database work: the framework's own floor (middleware, guards, logging, serialization).
    name: 'health live',
    method: 'GET',
    path: '/health/live',
    baseline: async () => ({ body: { status: 'ok' } }),
  },
  ...profileScenarios,
  ...limiterScenarios,
  ...spacesScenarios,
  ...hardeningScenarios,
];

/** `BENCH_SCENARIOS=a,b` keeps the scenarios whose name contains any of the given parts. */
export function selectScenarios(filter: string | undefined, from: Scenario[] = scenarios): Scenario[] {
  const parts = (filter ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
  if (parts.length === 0) return from;
  return from.filter((s) => parts.some((part) => s.name.toLowerCase().includes(part)));
}

/** The request body as sent on the wire, plus the content type it implies. */
export function encodeBody(scenario: Pick<Scenario, 'body' | 'headers'>): {
  body?: string;
  headers: Record<string, string>;
} {
  const headers = { ...scenario.headers };
  if (scenario.body === undefined) return { headers };
  if (typeof scenario.body === 'string') return { body: scenario.body, headers };
  const hasContentType = Object.keys(headers).some((h) => h.toLowerCase() === 'content-type');
  if (!hasContentType) headers['content-type'] = 'application/json';
  return { body: JSON.stringify(scenario.body), headers };
}
