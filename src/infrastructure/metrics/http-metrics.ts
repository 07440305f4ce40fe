import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Metrics } from './metrics';

/**
 * The label of every request no route matched (or answered before routing): raw paths never become
 * labels. Nest mounts its middleware as a wildcard route (`{/*splat}`), which Express also leaves in
 * `request.route`; no handler of ours has a wildcard, so a wildcard path means "no handler".
 */
export const UNMATCHED_ROUTE = 'unmatched';

/** Seconds; the API answers in milliseconds, so the low buckets are finer than prom-client's defaults. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const STARTED = Symbol('metricsStartedAt');
type Timed = ServerResponse & { [STARTED]?: number };

/**
 * Request rate, latency and errors per route template and status. Recorded once the response
 * finishes, with one shared listener: per request, a start time and one label object.
 */
@Injectable()
export class HttpMetrics {
  private readonly requests;
  private readonly duration;
  private readonly onFinish: (this: Timed) => void;

  constructor(metrics: Metrics) {
    const labels = ['method', 'route', 'status'] as const;
    this.requests = metrics.counter('http_requests_total', 'HTTP requests answered', labels);
    this.duration = metrics.histogram(
      'http_request_duration_seconds',
      'Time from the first middleware until the response finished',
      labels,
      DURATION_BUCKETS,
    );
    const { requests, duration } = this;
    this.onFinish = function (this: Timed) {
      const request = this.req as Request;
      const path: unknown = request.route?.path;
      const labelValues = {
        method: request.method,
        route: typeof path === 'string' && !path.includes('*') ? path : UNMATCHED_ROUTE,
        status: String(this.statusCode),
      };
      requests.inc(labelValues);
      duration.observe(labelValues, (performance.now() - this[STARTED]!) / 1000);
    };
  }

  /** Called first for every request (RequestPreamble), so every answer is measured, refusals included. */
  start(response: ServerResponse): void {
    (response as Timed)[STARTED] = performance.now();
    response.once('finish', this.onFinish);
  }
}
