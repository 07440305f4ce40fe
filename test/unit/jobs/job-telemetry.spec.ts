import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { AppConfig } from '../../../src/config/app-config';
import { BullMqJobQueue } from '../../../src/infrastructure/jobs/bullmq-job-queue';
import { InProcessJobQueue } from '../../../src/infrastructure/jobs/in-process-job-queue';
import type { JobQueue } from '../../../src/infrastructure/jobs/job-queue';
import { JobTelemetry } from '../../../src/infrastructure/jobs/job-telemetry';
import { Metrics } from '../../../src/infrastructure/metrics/metrics';
import { startTracing } from '../../../src/infrastructure/tracing/otel-sdk';

const REDIS_URL = process.env.REDIS_URL;

const exporter = new InMemorySpanExporter();
startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

/** Waits (for Redis round trips and retries, not a clock) until `holds`, at most ten seconds. */
async function until(holds: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await holds()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(await holds()).toBe(true);
}

async function sample(metrics: Metrics, name: string, labels: Record<string, string>): Promise<number> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const found = metric?.values.find((value) =>
    Object.entries(labels).every(([key, wanted]) => String(value.labels[key]) === wanted),
  );
  return found?.value ?? 0;
}

interface QueueUnderTest {
  name: string;
  available: boolean;
  make: (telemetry: JobTelemetry) => JobQueue;
}

const queues: QueueUnderTest[] = [
  { name: 'InProcessJobQueue', available: true, make: (telemetry) => new InProcessJobQueue(1000, telemetry) },
  {
    name: 'BullMqJobQueue',
    available: Boolean(REDIS_URL),
    make: (telemetry) =>
      new BullMqJobQueue(
        REDIS_URL!,
        `plat:test:${randomUUID()}:jobs`,
        { concurrency: 4, lockMs: 5000, stalledCheckMs: 5000, maxStalled: 1 },
        telemetry,
      ),
  },
];

/**
 * Each job continues the trace that queued it (W3C trace context stored with the job), in both
 * queues; every attempt is counted by outcome and timed; the backlog per kind is readable for
 * plat_jobs_waiting and plat_job_oldest_waiting_seconds (docs/decisions/0123-traces-and-job-metrics.md).
 */
describe.each(queues)('$name: trace context and job metrics', ({ available, make }) => {
  let jobs: JobQueue;
  let metrics: Metrics;

  beforeEach(() => {
    exporter.reset();
    metrics = new Metrics({ METRICS_PORT: 0 } as AppConfig);
    jobs = make(new JobTelemetry(metrics));
  });

  afterEach(() => jobs?.close());

  (available ? it : it.skip)(
    'runs the job in a span that is a child of the span that queued it; the handler sees its own data only',
    async () => {
      const seen: unknown[] = [];
      jobs.handle<{ n: number }>('traced', async (data) => {
        seen.push(data);
        // What the job does joins its span (here a span of its own, as SQL or S3 calls would).
        trace.getTracer('test').startSpan('inside the job').end();
      });
      jobs.start();
      await trace.getTracer('test').startActiveSpan('request', async (span) => {
        await jobs.add('traced', { n: 1 });
        span.end();
        const requestSpan = span.spanContext();
        await until(() => exporter.getFinishedSpans().some((s) => s.name === 'inside the job'));
        const job = exporter.getFinishedSpans().find((s) => s.name === 'job traced')!;
        expect(job.spanContext().traceId).toBe(requestSpan.traceId);
        expect(job.parentSpanContext?.spanId).toBe(requestSpan.spanId);
        const inside = exporter.getFinishedSpans().find((s) => s.name === 'inside the job')!;
        expect(inside.spanContext().traceId).toBe(requestSpan.traceId);
        expect(inside.parentSpanContext?.spanId).toBe(job.spanContext().spanId);
      });
      expect(seen).toEqual([{ n: 1 }]);
    },
  );

  (available ? it : it.skip)('starts a trace of its own for a job queued outside any span', async () => {
    let runs = 0;
    jobs.handle('untraced', async () => void (runs += 1));
    jobs.start();
    await jobs.add('untraced', { n: 2 });
    await until(() => exporter.getFinishedSpans().some((s) => s.name === 'job untraced'));
    const job = exporter.getFinishedSpans().find((s) => s.name === 'job untraced')!;
    expect(job.parentSpanContext).toBeUndefined();
    expect(runs).toBe(1);
  });

  (available ? it : it.skip)(
    'counts attempts by outcome (completed, retried, failed) and times each',
    async () => {
      jobs.handle('fine', async () => undefined);
      jobs.handle(
        'broken',
        async () => {
          throw new Error('always fails');
        },
        { attempts: 2, backoffMs: 10 },
      );
      jobs.start();
      await jobs.add('fine', { n: 1 });
      await jobs.add('broken', { n: 1 });
      // Counted just after the span ends.
      await until(
        async () => (await sample(metrics, 'plat_jobs_total', { kind: 'broken', outcome: 'failed' })) === 1,
      );
      await until(
        async () => (await sample(metrics, 'plat_jobs_total', { kind: 'fine', outcome: 'completed' })) === 1,
      );

      expect(await sample(metrics, 'plat_jobs_total', { kind: 'broken', outcome: 'retried' })).toBe(1);
      expect(await sample(metrics, 'plat_jobs_total', { kind: 'broken', outcome: 'failed' })).toBe(1);
      expect(await sample(metrics, 'plat_jobs_total', { kind: 'broken', outcome: 'completed' })).toBe(0);
      const count = (kind: string) =>
        metrics.registry
          .getSingleMetric('plat_job_duration_seconds')!
          .get()
          .then(
            (m) =>
              m.values.find(
                (v) =>
                  (v as { metricName?: string }).metricName?.endsWith('_count') && v.labels.kind === kind,
              )?.value,
          );
      expect(await count('fine')).toBe(1);
      expect(await count('broken')).toBe(2);
      const failedSpan = exporter.getFinishedSpans().filter((s) => s.name === 'job broken')[1];
      expect(failedSpan.status.code).toBe(2); // SpanStatusCode.ERROR
      expect(failedSpan.attributes['plat.job.attempt']).toBe(2);
    },
  );

  (available ? it : it.skip)(
    'reports per kind the jobs due but not started and when the oldest was queued',
    async () => {
      let started = 0;
      let open: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (open = resolve));
      jobs.handle('narrow', () => ((started += 1), gate), { concurrency: 1 });
      jobs.handle('idle', async () => undefined);
      jobs.start();
      const before = Date.now();
      for (let n = 0; n < 3; n++) await jobs.add('narrow', { n });
      await until(() => started === 1);

      const waiting = await jobs.waiting();
      expect(waiting.idle).toEqual({ count: 0, oldestQueuedAt: null });
      expect(waiting.narrow.count).toBe(2);
      expect(waiting.narrow.oldestQueuedAt).toBeGreaterThanOrEqual(before - 5);
      expect(waiting.narrow.oldestQueuedAt).toBeLessThanOrEqual(Date.now());

      open();
      await until(async () => (await jobs.waiting()).narrow.count === 0 && started === 3);
      expect((await jobs.waiting()).narrow).toEqual({ count: 0, oldestQueuedAt: null });
    },
  );
});

describe('JobTelemetry without metrics', () => {
  it('records nothing and registers no series when METRICS_PORT is unset', async () => {
    const metrics = new Metrics({} as AppConfig);
    const telemetry = new JobTelemetry(metrics);
    await telemetry.run({ kind: 'k', attempt: 1, last: true, system: 'in-process' }, async () => undefined);
    expect(metrics.registry.getSingleMetric('plat_jobs_total')).toBeUndefined();
  });
});
