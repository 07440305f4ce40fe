import { createHook } from 'node:async_hooks';
import { BullMqJobQueue } from '../../../src/infrastructure/jobs/bullmq-job-queue';
import { JOB_CLOSE_PATIENCE_MS } from '../../../src/infrastructure/jobs/job-queue';
import { closedPort, silentServer } from '../../support/network';

const SETTINGS = { concurrency: 1, lockMs: 1000, stalledCheckMs: 1000, maxStalled: 1 };

/** Timers armed by ioredis or BullMQ while `run` runs that are still pending 300 ms after it. */
async function timersLeftBy(run: () => Promise<void>): Promise<string[]> {
  const live = new Map<number, string>();
  const hook = createHook({
    init(id, type) {
      if (type !== 'Timeout') return;
      const stack = new Error().stack ?? '';
      if (/node_modules\/(ioredis|bullmq)\//.test(stack)) live.set(id, stack);
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  try {
    await run();
    await new Promise((resolve) => setTimeout(resolve, 300));
  } finally {
    hook.disable();
  }
  return [...live.values()];
}

/** Closes a started queue on `url`: how long it took, and the timers it left behind. */
async function closeStarted(url: string): Promise<{ ms: number; left: string[] }> {
  const queue = new BullMqJobQueue(url, `plat:test:close:${Date.now()}`, SETTINGS);
  queue.handle('noop', async () => undefined);
  queue.start();
  await new Promise((resolve) => setTimeout(resolve, 200));
  let ms = 0;
  const left = await timersLeftBy(async () => {
    const started = Date.now();
    await queue.close();
    ms = Date.now() - started;
  });
  return { ms, left };
}

describe('BullMqJobQueue.close with Redis gone (a stopping replica must not hang or linger)', () => {
  it('with nothing listening: closes at once, and nothing keeps reconnecting', async () => {
    const { ms, left } = await closeStarted(`redis://127.0.0.1:${await closedPort()}`);
    expect(ms).toBeLessThan(JOB_CLOSE_PATIENCE_MS / 2);
    expect(left).toEqual([]);
  });

  it('with a Redis that accepts and never answers: the worker’s claims stop being renewed', async () => {
    const silent = await silentServer();
    try {
      const { ms, left } = await closeStarted(silent.url);
      expect(ms).toBeLessThan(JOB_CLOSE_PATIENCE_MS / 2);
      expect(left).toEqual([]);
    } finally {
      await silent.close();
    }
  });
});
