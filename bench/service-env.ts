/**
 * App environments of the benchmark: each scenario names the environment its app process needs
 * (and, for an app counterpart, the one its counterpart needs). Pure functions only.
 */

/** Variables over the harness defaults: a string sets the variable, null unsets it. */
export type ServiceEnv = Readonly<Record<string, string | null>>;

/**
 * What every service process gets unless a scenario says otherwise. Limits off and no Redis, so
 * figures do not depend on the caller's shell; `PUBLIC_HOST` is fixed so request proofs name one
 * audience whatever port a process got (the bare baseline checks the same value).
 */
export const BENCH_PUBLIC_HOST = 'bench.plat.test';

export const SERVICE_DEFAULTS: ServiceEnv = {
  // As deployed: one access-log line per request (the twin writes its equivalent, bench/twin/http.ts).
  LOG_LEVEL: 'info',
  RATE_LIMIT_DISABLED: 'true',
  REDIS_URL: null,
  PUBLIC_HOST: BENCH_PUBLIC_HOST,
  RELAY_URL: null,
  // No metrics endpoint (its per-request recording would be measured too).
  METRICS_PORT: null,
  // Shared by every process, so a cursor one of them issued is valid on all of them.
  CURSOR_SECRET: 'plat-bench-cursor-secret-not-for-production',
  // The bench's own media store (relative to the checkout, the app's working directory); the twin
  // serves the same files (bench/fleet.ts twinEnv).
  MEDIA_DIR: '.data/bench-media',
  // Shared, so an upload URL one process minted is good on the others (random per process else).
  MEDIA_URL_SECRET: 'plat-bench-media-url-secret-not-for-production',
  // The bench reader uploads hundreds of 5 MB bodies a run, past a person's daily quota (2 GiB).
  MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY: String(1024 ** 4),
  // Reads show the previews the seed recorded and queue nothing: a read of a post whose links are
  // unresolved would otherwise send the pages' hosts requests from the measured process.
  LINK_PREVIEWS_ENABLED: 'false',
};

/** Later layers win; a null in a later layer unsets what an earlier one set. */
export function mergeEnv(...layers: ServiceEnv[]): ServiceEnv {
  const merged: Record<string, string | null> = {};
  for (const layer of layers) Object.assign(merged, layer);
  return merged;
}

/** The same key for the same effective environment, whatever the order the variables came in. */
export function envKey(env: ServiceEnv): string {
  return JSON.stringify(
    Object.keys(env)
      .sort()
      .map((name) => [name, env[name]]),
  );
}

/** `base` (a process environment) with `env` applied: set variables set, null ones removed. */
export function applyEnv(
  base: Readonly<Record<string, string | undefined>>,
  env: ServiceEnv,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) if (value !== undefined) result[name] = value;
  for (const [name, value] of Object.entries(env)) {
    if (value === null) delete result[name];
    else result[name] = value;
  }
  return result;
}

/** The variables of `env` that differ from `reference`, for labels (`A=1, B unset`); URLs redacted. */
export function describeEnv(env: ServiceEnv, reference: ServiceEnv = SERVICE_DEFAULTS): string {
  const names = [...new Set([...Object.keys(env), ...Object.keys(reference)])].sort();
  const parts: string[] = [];
  for (const name of names) {
    const value = env[name] ?? null;
    const before = reference[name] ?? null;
    if (value === before) continue;
    parts.push(value === null ? `${name} unset` : `${name}=${redact(value)}`);
  }
  return parts.length === 0 ? 'defaults' : parts.join(', ');
}

/** `scheme://user:secret@host` → `scheme://***@host`. */
export function redact(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1***@');
}
