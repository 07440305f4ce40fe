import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * The run's settings (environment variables, all optional):
 * BENCH_ROUNDS (3: rounds per side, alternated app, counterpart, counterpart, app, …),
 * BENCH_DURATION (3: seconds measured per round), BENCH_WARMUP (5: seconds discarded first, so
 * both sides are measured once V8 has compiled them, as a replica that runs for hours is;
 * bench/README.md "Warm-up"), BENCH_WARMUP_REQUESTS (4000: the warm-up goes on until that many
 * answers…) and BENCH_WARMUP_MAX (10: …for at most that many seconds),
 * BENCH_CONNECTIONS (20),
 * BENCH_SERVER_CPU (1) and BENCH_LOAD_CPU (0): the cores the server under test and the load
 * generator are pinned to (taskset), BENCH_PIN=0 to pin nothing.
 */
export interface BenchConfig {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  warmupRequests: number;
  warmupMaxSeconds: number;
  connections: number;
  pinned: boolean;
  serverCpu: string;
  loadCpu: string;
  unpinnedBecause?: string;
}

export function buildConfig(env: NodeJS.ProcessEnv): BenchConfig {
  const serverCpu = env.BENCH_SERVER_CPU ?? '1';
  const loadCpu = env.BENCH_LOAD_CPU ?? '0';
  const unpinnedBecause =
    env.BENCH_PIN === '0'
      ? 'BENCH_PIN=0'
      : availableParallelism() < 2
        ? `${availableParallelism()} CPU`
        : !hasTaskset()
          ? 'taskset is not installed (util-linux)'
          : undefined;
  const warmupSeconds = positive(env, 'BENCH_WARMUP', 5);
  return {
    rounds: Math.floor(positive(env, 'BENCH_ROUNDS', 3)),
    durationSeconds: positive(env, 'BENCH_DURATION', 3),
    warmupSeconds,
    warmupRequests: Math.floor(positive(env, 'BENCH_WARMUP_REQUESTS', 4000)),
    warmupMaxSeconds: Math.max(positive(env, 'BENCH_WARMUP_MAX', 10), warmupSeconds),
    connections: Math.floor(positive(env, 'BENCH_CONNECTIONS', 20)),
    pinned: unpinnedBecause === undefined,
    serverCpu,
    loadCpu,
    ...(unpinnedBecause ? { unpinnedBecause } : {}),
  };
}

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, got "${raw}"`);
  return value;
}

/** How a run warms up, as the report prints it: `5–10 s warm-up (to 4,000 answers)`. */
export function warmupText(
  config: Pick<BenchConfig, 'warmupSeconds' | 'warmupRequests' | 'warmupMaxSeconds'>,
) {
  const span =
    config.warmupMaxSeconds > config.warmupSeconds
      ? `${config.warmupSeconds}–${config.warmupMaxSeconds} s`
      : `${config.warmupSeconds} s`;
  return `${span} warm-up (to ${config.warmupRequests.toLocaleString('en')} answers)`;
}
