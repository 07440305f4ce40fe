import type { Response } from 'express';

/**
 * An answer recorded for an earlier request and given again instead of running the route (an
 * `Idempotency-Key` retry). Thrown from the guard stage, the only way to skip the handler without
 * an interceptor; the global exception filter writes it unchanged: same status, content headers
 * and body bytes, marked `Idempotent-Replayed: true`.
 */
export class RecordedAnswer extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: Buffer,
  ) {
    super('recorded answer');
  }

  writeTo(response: Response): void {
    for (const [name, value] of Object.entries(this.headers)) response.setHeader(name, value);
    response.setHeader('Idempotent-Replayed', 'true');
    // As Express answered the first time: a 204 carries no Content-Length.
    if (this.status !== 204) response.setHeader('Content-Length', this.body.length);
    response.status(this.status).end(this.body);
  }
}
