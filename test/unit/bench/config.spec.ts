import { buildConfig, warmupText } from '../../../bench/config';

describe('bench config: the warm-up', () => {
  it('lasts 5 s at least, on to 4,000 answers, 10 s at most by default', () => {
    const config = buildConfig({ BENCH_PIN: '0' });
    expect([config.warmupSeconds, config.warmupRequests, config.warmupMaxSeconds]).toEqual([5, 4000, 10]);
    expect(warmupText(config)).toBe('5–10 s warm-up (to 4,000 answers)');
  });

  it('never ends before its minimum, whatever the maximum says', () => {
    const config = buildConfig({ BENCH_PIN: '0', BENCH_WARMUP: '8', BENCH_WARMUP_MAX: '3' });
    expect(config.warmupMaxSeconds).toBe(8);
    expect(warmupText(config)).toBe('8 s warm-up (to 4,000 answers)');
  });

  it('takes the request count from BENCH_WARMUP_REQUESTS', () => {
    expect(buildConfig({ BENCH_PIN: '0', BENCH_WARMUP_REQUESTS: '250' }).warmupRequests).toBe(250);
  });
});
