import type { IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import type { ServiceEnv } from './service-env';

/**
 * What a benchmark scenario is made of. The registry is bench/scenarios.ts; scenario families live
 * in bench/suites/.
 */
export interface Scenario {
  name: string;
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent verbatim (include the query string); `setup` may replace it. */
  path: string;
  headers?: Record<string, string>;
  body?: string | object;
  /**
   * The service's environment over SERVICE_DEFAULTS (bench/service-env.ts); null unsets a
   * variable. A function sees the run's facts and may throw SkipScenario. Scenarios with equal
   * effective environments share one process.
   */
  env?: EnvSpec;
  /**
   * Run once against the started service, right before the scenario is measured (so request proofs
   * signed here are fresh). Throw SkipScenario when the scenario cannot run here.
   */
  setup?: (context: SetupContext) => Promise<Prepared | void>;
  /**
   * What the service is compared with: a bare node:http + pg handler doing the same essential work,
   * or the service itself in another environment (e.g. rate limiting off). None: no ratio.
   */
  baseline?: BaselineHandler | ServiceBaseline;
  /** Also report this scenario's service req/s divided by the named scenario's (same run). */
  relativeTo?: string;
  /**
   * A second load fired at the service while this scenario is measured (never at a bare baseline):
   * the scenario's figures then show what that load does to everyone else. Its own answers may be
   * any status; only transport errors count as failures.
   */
  alongside?: AlongsideLoad;
}

export interface AlongsideLoad {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  connections: number;
  /** Requests per second in all (a steady client rather than as fast as the machine allows). */
  requestsPerSecond?: number;
}

export type EnvSpec = ServiceEnv | ((facts: RunFacts) => ServiceEnv);

export interface ServiceBaseline {
  /** How the report names it, e.g. "service, limiting off". */
  label: string;
  env: EnvSpec;
}

/** What the runner learnt about this machine before planning. */
export interface RunFacts {
  /** A Redis that answered PING: REDIS_URL, else redis://127.0.0.1:6379; null when neither did. */
  redisUrl: string | null;
}

export interface SetupContext {
  /** The service under test (the scenario's environment). */
  serviceUrl: string;
  /** The `aud` request proofs must name (PUBLIC_HOST of every service process). */
  audience: string;
  /** The benchmark database, for seeding and lookups (the service has migrated it). */
  pool: Pool;
  /** Seconds one measured phase lasts (warm-up plus run): proofs must outlive it. */
  phaseSeconds: number;
  /** Runs `make` once per benchmark run and key; later callers get the same promise. */
  shared<T>(key: string, make: () => Promise<T>): Promise<T>;
  log(message: string): void;
}

export interface Prepared {
  /** Replaces `scenario.path` on both sides (unless `baselinePath` is given). */
  path?: string;
  /** The path the bare baseline gets instead, when its equivalent differs (e.g. its own cursor). */
  baselinePath?: string;
  /**
   * Extra headers on both sides. A function is called before every measured phase (service and
   * baseline each), e.g. to sign a fresh request proof.
   */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** Shown beside the figures (what was prepared, e.g. the walk depth). */
  note?: string;
}

/** Thrown by `env` or `setup`: the scenario is reported as skipped with this reason. */
export class SkipScenario extends Error {
  override readonly name = 'SkipScenario';
}

export interface BaselineContext {
  pool: Pool;
  request: IncomingMessage;
  /** The request URL parsed against the baseline's origin. */
  url: URL;
  body: Buffer;
}

export interface BaselineResponse {
  status?: number;
  body: unknown;
}

export type BaselineHandler = (context: BaselineContext) => Promise<BaselineResponse>;

/** Header naming the scenario on every request of the benchmark; the bare baseline routes by it. */
export const SCENARIO_HEADER = 'x-bench-scenario';

export function isServiceBaseline(baseline: Scenario['baseline']): baseline is ServiceBaseline {
  return typeof baseline === 'object' && baseline !== null;
}

export function resolveEnv(spec: EnvSpec | undefined, facts: RunFacts): ServiceEnv {
  if (spec === undefined) return {};
  return typeof spec === 'function' ? spec(facts) : spec;
}
