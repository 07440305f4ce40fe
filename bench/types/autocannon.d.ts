// The subset of autocannon 9's API that bench/ uses (the package ships no type declarations).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      connections?: number;
      /** Requests per second across all connections (per worker; the bench runs one). */
      overallRate?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds. */
      timeout?: number;
      pipelining?: number;
      title?: string;
      /**
       * Requests in turn; with `setupRequest` each one is rebuilt before it is sent (what it
       * returns replaces method, path, headers, body).
       */
      requests?: RequestSpec[];
      /** A discarded run before the measured one; its result lands in `Result.warmup`. */
      warmup?: { connections?: number; duration?: number };
    }

    interface RequestSpec {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      setupRequest?: (request: Record<string, unknown>) => Record<string, unknown> | null;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      sent?: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }

    interface Result {
      title?: string;
      url: string;
      /** Requests per second (per-second samples) and, in `total`, completed requests. */
      requests: Histogram;
      /** Milliseconds. */
      latency: Histogram;
      throughput: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
      statusCodeStats: Record<string, { count: number }>;
      warmup?: Result;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
