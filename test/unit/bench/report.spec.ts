import {
  combineRuns,
  comparisons,
  ratioOf,
  type RunSummary,
  type ScenarioResult,
} from '../../../bench/report';

const run = (rps: number, p50: number, extra: Partial<RunSummary> = {}): RunSummary => ({
  requestsPerSecond: rps,
  completedRequests: rps * 5,
  latencyMs: { average: p50, p50, p90: p50 * 2, p99: p50 * 3, max: p50 * 4 },
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  statusCodes: { '200': rps * 5 },
  warmupFailures: 0,
  ...extra,
});

describe('bench report', () => {
  it('combines rounds: mean req/s and latencies, summed counts, each round kept', () => {
    const combined = combineRuns([
      run(100, 10),
      run(300, 20, { non2xx: 2, statusCodes: { '200': 1498, '500': 2 } }),
    ]);
    expect(combined.requestsPerSecond).toBe(200);
    expect(combined.latencyMs).toEqual({ average: 15, p50: 15, p90: 30, p99: 45, max: 80 });
    expect(combined.completedRequests).toBe(2000);
    expect(combined.non2xx).toBe(2);
    expect(combined.statusCodes).toEqual({ '200': 1998, '500': 2 });
    expect(combined.rounds).toEqual([100, 300]);
    // One round is reported as measured.
    const single = run(50, 1);
    expect(combineRuns([single])).toBe(single);
    expect(() => combineRuns([])).toThrow();
  });

  it('relates scenarios measured in the same run', () => {
    const result = (name: string, service: RunSummary | null): ScenarioResult => ({
      name,
      method: 'GET',
      path: '/',
      serviceEnv: 'defaults',
      baselineKind: null,
      baselineLabel: null,
      service,
      baseline: null,
      ratio: null,
    });
    const results = [result('first', run(200, 10)), result('deep', run(190, 11)), result('skipped', null)];
    expect(
      comparisons(results, [
        { name: 'deep', relativeTo: 'first' },
        { name: 'skipped', relativeTo: 'first' },
      ]),
    ).toEqual([
      {
        name: 'deep',
        relativeTo: 'first',
        ratio: 0.95,
        p50: { of: 11, relativeTo: 10 },
        p99: { of: 33, relativeTo: 30 },
      },
    ]);
    expect(ratioOf(run(50, 1), run(0, 1))).toBeNull();
    expect(ratioOf(run(50, 1), null)).toBeNull();
  });
});
