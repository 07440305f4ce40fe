import type { Counter, Histogram } from 'prom-client';
import type { Metrics } from '../metrics/metrics';
import { captureTraceContext, inSpan, TraceCarrier } from '../tracing/trace-context';

/** Seconds: jobs take from milliseconds (an announcement batch) to minutes (a video's poster). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** How an attempt ended: done, failed with another attempt to come, or failed for good. */
export type JobOutcome = 'completed' | 'retried' | 'failed';

/** One attempt of a job, as a queue runs it. */
export interface JobAttempt {
  kind: string;
  /** 1 for the first run. */
  attempt: number;
  /** Whether a failure of this attempt is the job's last (no retry follows). */
  last: boolean;
  /** The trace context the job was queued in (`JobTelemetry.capture`). */
  trace?: TraceCarrier;
  /** Which queue runs it, for the span. */
  system: 'bullmq' | 'in-process';
}

/**
 * What both job queues record of each attempt (docs/decisions/0123-traces-and-job-metrics.md): a span,
 * child of the trace that queued the job, and `plat_jobs_total{kind,outcome}` and
 * `plat_job_duration_seconds{kind}`. Without metrics (METRICS_PORT unset) or tracing, that part
 * costs nothing.
 */
export class JobTelemetry {
  /** For queues built without one (unit tests): records nothing but still carries traces. */
  static readonly none = new JobTelemetry();

  private readonly jobs?: Counter<'kind' | 'outcome'>;
  private readonly duration?: Histogram<'kind'>;

  constructor(metrics?: Metrics) {
    if (!metrics?.enabled) return;
    this.jobs = metrics.counter('plat_jobs_total', 'Job attempts that ended, per kind and outcome', [
      'kind',
      'outcome',
    ]);
    this.duration = metrics.histogram(
      'plat_job_duration_seconds',
      'Time a job attempt ran, whatever its outcome',
      ['kind'],
      DURATION_BUCKETS,
    );
  }

  /** The trace context of the code queueing a job, to store with it. */
  capture(): TraceCarrier | undefined {
    return captureTraceContext();
  }

  /** Runs one attempt in its span, counting and timing it; rethrows the handler's error. */
  async run(attempt: JobAttempt, work: () => Promise<void>): Promise<void> {
    const started = performance.now();
    const record = (outcome: JobOutcome) => {
      this.jobs?.inc({ kind: attempt.kind, outcome });
      this.duration?.observe({ kind: attempt.kind }, (performance.now() - started) / 1000);
    };
    const attributes = {
      'messaging.system': attempt.system,
      'messaging.operation.type': 'process',
      'messaging.destination.name': attempt.kind,
      'plat.job.attempt': attempt.attempt,
    };
    await inSpan(`job ${attempt.kind}`, attempt.trace, attributes, work).then(
      () => record('completed'),
      (error: unknown) => {
        record(attempt.last ? 'failed' : 'retried');
        throw error;
      },
    );
  }
}
