import { Logger } from '@nestjs/common';
import { InProcessJobQueue } from '../../../src/infrastructure/jobs/in-process-job-queue';
import { JOB_CLOSE_PATIENCE_MS } from '../../../src/infrastructure/jobs/job-queue';

describe('InProcessJobQueue (the job queue without Redis)', () => {
  let jobs: InProcessJobQueue;

  beforeEach(() => {
    jest.useFakeTimers();
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jobs = new InProcessJobQueue();
  });

  afterEach(async () => {
    await jobs.close();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('retries a failing job with doubling pauses, up to its attempts', async () => {
    const runs: number[] = [];
    jobs.handle(
      'flaky',
      async () => {
        runs.push(Date.now());
        throw new Error('down');
      },
      { attempts: 3, backoffMs: 100 },
    );
    const start = Date.now();
    await jobs.add('flaky', {});
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs.map((time) => time - start)).toEqual([0, 100, 300]);
    expect(await jobs.depth()).toEqual({ flaky: 0 });
  });

  it('pauses JOBS_RETRY_BACKOFF_MS before the first retry of a kind that sets no pause', async () => {
    const quick = new InProcessJobQueue(undefined, undefined, 50);
    const runs: number[] = [];
    quick.handle('flaky', async () => {
      runs.push(Date.now());
      throw new Error('down');
    });
    const start = Date.now();
    await quick.add('flaky', {});
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs.map((time) => time - start)).toEqual([0, 50, 150, 350, 750]);
    await quick.close();
  });

  it('runs at most `concurrency` jobs of a kind at once; the others wait their turn, in order', async () => {
    const started: number[] = [];
    const release: (() => void)[] = [];
    jobs.handle<{ n: number }>(
      'narrow',
      (data) =>
        new Promise<void>((resolve) => {
          started.push(data.n);
          release.push(resolve);
        }),
      { concurrency: 1 },
    );
    for (const n of [1, 2, 3]) await jobs.add('narrow', { n });
    await jest.advanceTimersByTimeAsync(0);
    expect(started).toEqual([1]);
    expect(await jobs.depth()).toEqual({ narrow: 3 });
    release.shift()!();
    await jest.advanceTimersByTimeAsync(0);
    expect(started).toEqual([1, 2]);
    release.shift()!();
    await jest.advanceTimersByTimeAsync(0);
    release.shift()!();
    await jest.advanceTimersByTimeAsync(0);
    expect(started).toEqual([1, 2, 3]);
    expect(await jobs.depth()).toEqual({ narrow: 0 });
  });

  it('stops retrying once the job succeeds, and runs a delayed job no earlier than asked', async () => {
    let failures = 1;
    const done: unknown[] = [];
    jobs.handle<{ n: number }>('once', async (data) => {
      if (failures-- > 0) throw new Error('first time');
      done.push(data);
    });
    await jobs.add('once', { n: 1 }, { delayMs: 500 });
    await jest.advanceTimersByTimeAsync(499);
    expect(await jobs.depth()).toEqual({ once: 1 });
    await jest.advanceTimersByTimeAsync(5000);
    expect(done).toEqual([{ n: 1 }]);
  });

  it('drops a job whose id is still queued', async () => {
    const seen: number[] = [];
    jobs.handle<number>('dedup', async (n) => {
      seen.push(n);
    });
    await jobs.add('dedup', 1, { jobId: 'x' });
    await jobs.add('dedup', 2, { jobId: 'x' });
    await jest.advanceTimersByTimeAsync(0);
    await jobs.add('dedup', 3, { jobId: 'x' });
    await jest.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([1, 3]);
  });

  it('runs a repeating job each interval, never two runs at once', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    jobs.handle('tick', async () => {
      running++;
      most = Math.max(most, running);
      runs++;
      await new Promise((resolve) => setTimeout(resolve, 250));
      running--;
    });
    await jobs.every('tick', 100);
    await jest.advanceTimersByTimeAsync(1000);
    expect(most).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(3);
    // Closing waits for the run in progress.
    const closing = jobs.close();
    await jest.advanceTimersByTimeAsync(250);
    await closing;
    expect(running).toBe(0);
  });

  it('closing waits for a running job at most JOB_CLOSE_PATIENCE_MS, then goes on', async () => {
    const queue = new InProcessJobQueue(); // of its own: its job never ends, so afterEach's close would wait
    queue.handle('stuck', () => new Promise<void>(() => undefined));
    await queue.add('stuck', {});
    await jest.advanceTimersByTimeAsync(0);
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await jest.advanceTimersByTimeAsync(JOB_CLOSE_PATIENCE_MS - 1);
    expect(closed).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await closing;
    expect(closed).toBe(true);
  });

  it('refuses a job kind nobody handles', async () => {
    await expect(jobs.add('unknown', {})).rejects.toThrow('no handler for job unknown');
  });
});
