import type { Pool } from 'pg';
import type { Actors } from './actors';
import type { RequestPlan } from './request-plan';
import type { SeedPlan } from './seed-plan';
import type { ServiceEnv } from './service-env';

/**
 * What a benchmark scenario is made of. The registry is bench/scenarios.ts; scenario families live
 * in bench/suites/, the bare twins in bench/twin/.
 *
 * A scenario is measured as a pair: the app (the built service, or the Nest hello world for the
 * framework ceiling) against its counterpart: the bare twin (node:http + pg doing the same
 * statements and answering the same bytes), or the app itself in another environment (limiting
 * off), or the raw node:http hello world. A scenario without a counterpart (`against: 'none'`) is
 * measured alone and read beside another scenario (`relativeTo`).
 */
export interface Scenario {
  name: string;
  /** How the table groups it. */
  group: 'ceiling' | 'floor' | 'read' | 'authenticated read' | 'write' | 'limiter' | 'hardening';
  /** What the request is (paths, proofs), worked out once per run against the app and the seed. */
  request: (context: PlanContext) => RequestPlan | Promise<RequestPlan>;
  /** The app's environment over SERVICE_DEFAULTS; a function may throw SkipScenario. */
  env?: EnvSpec;
  against: Counterpart;
  /** Also report this scenario's app req/s divided by the named scenario's (same run). */
  relativeTo?: string;
  /** Left out of a run unless BENCH_SCENARIOS names it (keeps the full run within its time). */
  optional?: boolean;
  /** A second load fired at the app while this scenario is measured (see AlongsideLoad). */
  alongside?: AlongsideLoad;
  /** How the verify step compares this scenario's two answers (default: exactly). */
  compare?: CompareRules;
  /**
   * This scenario's target (bench/README.md, "Targets"): the app/counterpart ratio at least `ratio`, and/or
   * the app's req/s over `relativeTo`'s at least `relative`. Checked and listed after the table.
   */
  target?: { ratio?: number; relative?: number };
  /**
   * Also report, in the scenario's note: the app's memory (resident set before the load and its
   * peak by the end: /proc/<pid>/status) and the bytes per second its request bodies carried.
   */
  reports?: { memory?: boolean; throughput?: boolean };
  /**
   * Puts back what the scenario's writes use up, before every phase that sends its requests
   * (verify, each measured side, profile): e.g. the joiners of a join scenario back to having left,
   * so every join of the phase is a real one. Runs while no load does.
   */
  beforePhase?: (pool: Pool) => Promise<void>;
}

export type Counterpart =
  /** The bare twin's handler of this name (bench/twin/handlers.ts). */
  | { kind: 'twin'; handler: string }
  /** The app in another environment (e.g. rate limiting off). */
  | { kind: 'app'; label: string; env: EnvSpec }
  /** The framework ceiling: Nest + Express hello world against raw node:http hello world. */
  | { kind: 'ceiling' }
  | { kind: 'none' };

export interface CompareRules {
  /**
   * Fields whose values are made on the spot (ids of created rows, timestamps of a write, a
   * measured response time): replaced by a placeholder of their shape before the bodies are
   * compared. Each entry names what it is and why it may differ.
   */
  volatile?: VolatileField[];
  /** Body and status only (the ceiling's two hello worlds have different frameworks' headers). */
  bodyOnly?: boolean;
  /** Requests to the twin use the next request of the plan (a write must not repeat the app's). */
  twinTakesNextRequest?: boolean;
  /** The app's answer must carry this header (e.g. RateLimit-Remaining: the limiter is on). */
  appHeader?: string;
  /** After both answered: compares what each wrote (rows read back); the differences found. */
  written?: (context: WrittenContext) => Promise<string[]>;
}

export interface VolatileField {
  pattern: RegExp;
  placeholder: string;
}

export interface WrittenContext {
  pool: Pool;
  app: { status: number; body: string };
  twin: { status: number; body: string };
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

/** What the runner learnt about this machine before planning. */
export interface RunFacts {
  /** A Redis that answered PING: REDIS_URL, else redis://127.0.0.1:6379; null when neither did. */
  redisUrl: string | null;
}

export interface PlanContext {
  /** A running app (default environment) to walk cursors against. */
  appUrl: string;
  /** The `aud` request proofs must name (PUBLIC_HOST of every app process). */
  audience: string;
  pool: Pool;
  plan: SeedPlan;
  actors: Actors;
  log(message: string): void;
}

/** Thrown by `env` or `request`: the scenario is reported as skipped with this reason. */
export class SkipScenario extends Error {
  override readonly name = 'SkipScenario';
}

/** Header naming the twin handler on every request of the benchmark; the twin routes by it. */
export const TWIN_HEADER = 'x-bench-twin';

export function resolveEnv(spec: EnvSpec | undefined, facts: RunFacts): ServiceEnv {
  if (spec === undefined) return {};
  return typeof spec === 'function' ? spec(facts) : spec;
}

/** Placeholders of the usual volatile fields. */
export const VOLATILE = {
  /** A timestamp of the write itself (publishedAt, updatedAt, activityAt of a created row). */
  isoTime: { pattern: /"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g, placeholder: '"<time>"' },
  postId: { pattern: /post_[0-9a-f]{32}/g, placeholder: 'post_<id>' },
  commentId: { pattern: /comment_[0-9a-f]{32}/g, placeholder: 'comment_<id>' },
  /** A new content chain: its id and head are CIDs of an operation signed at the write's time. */
  chain: {
    pattern: /"protocol":\{"contentId":"[^"]+","headOpCid":"[^"]+"\}/g,
    placeholder: '"protocol":{"contentId":"<content id>","headOpCid":"<cid>"}',
  },
} satisfies Record<string, VolatileField>;
