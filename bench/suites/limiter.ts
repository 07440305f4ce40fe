import { SkipScenario, type Counterpart, type Scenario } from '../scenario-kit';
import type { ServiceEnv } from '../service-env';

/**
 * What rate limiting costs (docs/decisions/0089-the-rate-limiter-without-promises-one-redis-command-per-turn.md;
 * target: the Redis limiter within 10% of limiting off): GET /v1/protocol (a few hundred bytes from the configuration, no database work,
 * so the limiter's own cost is not hidden behind other work), the app with the limiter on (in
 * memory, or Redis with its own key prefix) against the app with it off: two fresh processes per
 * round, alternated like every pair. The per-IP budgets are raised to 1e9 so one load generator on
 * one IP never trips them; every request is still charged (the reads budget and the all-requests
 * one). Verify checks the limiter answers RateLimit-Remaining.
 */

const UNREACHABLE = '1000000000';

const LIMITS_ON: ServiceEnv = {
  RATE_LIMIT_DISABLED: 'false',
  RATE_LIMIT_IP_ALL: UNREACHABLE,
  RATE_LIMIT_IP_READS: UNREACHABLE,
};

/** Equal to the harness defaults. */
const limitingOff: Counterpart = {
  kind: 'app',
  label: 'app, limiting off',
  env: { RATE_LIMIT_DISABLED: 'true', REDIS_URL: null },
};

const PATH = '/v1/protocol';

/** Each process announces its own base URL (PUBLIC_BASE_URL names the port it got). */
const OWN_BASE_URL = { pattern: /http:\/\/127\.0\.0\.1:\d+/g, placeholder: 'http://127.0.0.1:<port>' };

export const limiterScenarios: Scenario[] = [
  {
    name: 'limiter memory',
    group: 'limiter',
    request: () => ({ method: 'GET', path: PATH }),
    env: { ...LIMITS_ON, REDIS_URL: null },
    against: limitingOff,
    compare: { appHeader: 'ratelimit-remaining', volatile: [OWN_BASE_URL] },
  },
  {
    name: 'limiter redis',
    group: 'limiter',
    request: () => ({ method: 'GET', path: PATH }),
    env: (facts) => {
      if (!facts.redisUrl)
        throw new SkipScenario('no Redis: REDIS_URL is unset and redis://127.0.0.1:6379 does not answer');
      // Own key prefix: other processes (tests) may share this Redis.
      return { ...LIMITS_ON, REDIS_URL: facts.redisUrl, RATE_LIMIT_REDIS_PREFIX: 'plat:bench:rl:' };
    },
    against: limitingOff,
    compare: { appHeader: 'ratelimit-remaining', volatile: [OWN_BASE_URL] },
    // Target: the Redis limiter costs at most 10% against limiting off.
    target: { ratio: 0.9 },
  },
];
