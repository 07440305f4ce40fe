import { SkipScenario, type Scenario, type ServiceBaseline, type SetupContext } from '../scenario-kit';
import type { ServiceEnv } from '../service-env';

/**
 * What rate limiting costs (issue 4 item 8): GET /v1/openapi.json (a read with no database work),
 * the service with the limiter on, against the same service with it off (RATE_LIMIT_DISABLED=true).
 * The per-IP budgets are raised to 1e9 so one load generator on one IP never trips them; every
 * request is still charged (two counters per request: the reads budget and the all-requests one).
 */

const UNREACHABLE = '1000000000';

const LIMITS_ON: ServiceEnv = {
  RATE_LIMIT_DISABLED: 'false',
  RATE_LIMIT_IP_ALL: UNREACHABLE,
  RATE_LIMIT_IP_READS: UNREACHABLE,
};

/** Equal to the harness defaults, so it shares their process. */
const limitingOff: ServiceBaseline = {
  label: 'service, limiting off',
  env: { RATE_LIMIT_DISABLED: 'true', REDIS_URL: null },
};

/**
 * Two requests: the limiter must answer with RateLimit-* headers that move, or the run would
 * measure a limiter that is not there.
 */
async function limiterIsCharging(context: SetupContext, path: string): Promise<void> {
  const remaining = async () => {
    const response = await fetch(`${context.serviceUrl}${path}`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    return Number(response.headers.get('ratelimit-remaining'));
  };
  const first = await remaining();
  const second = await remaining();
  // Not equal rather than less: a window may roll over between the two.
  if (!(Number.isFinite(first) && Number.isFinite(second) && second !== first))
    throw new Error(`the limiter does not charge (RateLimit-Remaining ${first}, then ${second})`);
}

/**
 * The issue asks for /v1/openapi.json (about 100 KB of JSON, so serializing it dominates a request);
 * the `small` pair repeats the comparison on GET /v1/protocol (a few hundred bytes built from the
 * configuration, no database either), where the limiter's per-request cost is a larger share.
 */
function limiterPair(suffix: string, path: string): Scenario[] {
  const setup = (context: SetupContext) => limiterIsCharging(context, path);
  return [
    {
      name: `limiter memory${suffix}`,
      method: 'GET',
      path,
      env: { ...LIMITS_ON, REDIS_URL: null },
      setup,
      baseline: limitingOff,
    },
    {
      name: `limiter redis${suffix}`,
      method: 'GET',
      path,
      env: (facts) => {
        if (!facts.redisUrl) {
          throw new SkipScenario('no Redis: REDIS_URL is unset and redis://127.0.0.1:6379 does not answer');
        }
        // Own key prefix: other processes (tests) may share this Redis.
        return { ...LIMITS_ON, REDIS_URL: facts.redisUrl, RATE_LIMIT_REDIS_PREFIX: 'plat:bench:rl:' };
      },
      setup,
      baseline: limitingOff,
    },
  ];
}

export const limiterScenarios: Scenario[] = [
  ...limiterPair('', '/v1/openapi.json'),
  ...limiterPair(' small', '/v1/protocol'),
];
