import {
  checkTargets,
  comparisons,
  ratioOf,
  sideResult,
  spreadOf,
  type RunSummary,
  type ScenarioResult,
} from '../../../bench/report';

const run = (rps: number, p50: number): RunSummary => ({
  requestsPerSecond: rps,
  completedRequests: rps * 5,
  latencyMs: { average: p50, p50, p90: p50 * 2, p99: p50 * 3, max: p50 * 4 },
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  statusCodes: { '200': rps * 5 },
  warmupFailures: 0,
});

const result = (name: string, extra: Partial<ScenarioResult> = {}): ScenarioResult => ({
  name,
  group: 'read',
  method: 'GET',
  path: '/',
  against: 'bare twin',
  app: null,
  counterpart: null,
  ratio: null,
  statements: null,
  verified: null,
  ...extra,
});

describe('bench report', () => {
  it('reports the median of the rounds and their spread', () => {
    expect(spreadOf([300, 100, 200])).toEqual({ median: 200, min: 100, max: 300 });
    expect(spreadOf([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4 });
    expect(() => spreadOf([])).toThrow();
    const side = sideResult('app', [run(100, 10), run(300, 30), run(200, 20)]);
    expect(side.requestsPerSecond).toEqual({ median: 200, min: 100, max: 300 });
    expect(side.p50Ms.median).toBe(20);
    expect(side.p99Ms).toEqual({ median: 60, min: 30, max: 90 });
  });

  it('divides the medians, with the spread of the rounds paired in order', () => {
    const app = sideResult('app', [run(100, 10), run(120, 10), run(90, 10)]);
    const twin = sideResult('twin', [run(200, 5), run(200, 5), run(300, 5)]);
    expect(ratioOf(app, twin)).toEqual({ median: 0.5, min: 0.3, max: 0.6 });
    expect(ratioOf(app, null)).toBeNull();
    expect(ratioOf(app, sideResult('twin', [run(0, 1)]))).toBeNull();
  });

  it('relates scenarios of the same run and checks the targets on the medians', () => {
    const results = [
      result('first', { app: sideResult('app', [run(200, 10)]) }),
      result('deep', {
        app: sideResult('app', [run(190, 11)]),
        ratio: { median: 0.55, min: 0.5, max: 0.6 },
        target: { ratio: 0.6, relative: 0.9, relativeTo: 'first' },
      }),
      result('skipped', { target: { ratio: 0.5 } }),
    ];
    const compared = comparisons(results, [
      { name: 'deep', relativeTo: 'first' },
      { name: 'skipped', relativeTo: 'first' },
    ]);
    expect(compared).toEqual([
      {
        name: 'deep',
        relativeTo: 'first',
        ratio: 0.95,
        rounds: { min: 0.95, max: 0.95 },
        p50: { of: 11, relativeTo: 10 },
        p99: { of: 33, relativeTo: 30 },
      },
    ]);
    expect(checkTargets(results, compared)).toEqual([
      { scenario: 'deep', what: 'app / bare twin', value: 0.55, atLeast: 0.6, met: false },
      { scenario: 'deep', what: 'app / app of "first"', value: 0.95, atLeast: 0.9, met: true },
      { scenario: 'skipped', what: 'app / bare twin', value: null, atLeast: 0.5, met: false },
    ]);
  });
});
