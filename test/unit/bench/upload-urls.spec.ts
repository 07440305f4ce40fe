import { buildConfig } from '../../../bench/config';
import { uploadUrlsWanted } from '../../../bench/suites/media';

describe('bench upload URLs', () => {
  it('cover every round of warm-up and measurement at the upload rate, plus what is in flight', () => {
    const config = buildConfig({ BENCH_PIN: '0' });
    // 3 rounds × (at most 10 s of warm-up + 3 s) at 45/s, 2 × 20 connections per round, and verify's.
    expect(uploadUrlsWanted({ uploadsPerSecond: 45 }, config)).toBe(1755 + 120 + 8);
    const longer = buildConfig({ BENCH_PIN: '0', BENCH_WARMUP: '10', BENCH_ROUNDS: '5' });
    expect(uploadUrlsWanted({ uploadsPerSecond: 45 }, longer)).toBeGreaterThan(45 * 5 * 13);
  });
});
