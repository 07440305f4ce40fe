import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../../common/errors/api-error';
import { RateLimiter } from './rate-limiter.service';

const PLAIN_TEXT: Record<number, string> = {
  429: 'Too many requests\n',
  503: 'Service temporarily unavailable\n',
};

/**
 * Per-IP stage for every request, before routing, so unknown routes are charged too (a guard
 * never runs for a path no route matches). Errors go to `next` (the global filter), except on the
 * OpenAPI and llms.txt artifacts, which are served outside the error envelope and refuse in plain
 * text. A charge the store answered at once continues the request synchronously.
 */
@Injectable()
export class RateLimitMiddleware {
  constructor(private readonly limiter: RateLimiter) {}

  use(request: Request, response: Response, next: NextFunction): void {
    let charged;
    try {
      charged = this.limiter.chargeIp(request, response);
    } catch (error) {
      return this.refuse(request, response, next, error);
    }
    if (!charged) return next();
    charged.then(
      () => next(),
      (error: unknown) => this.refuse(request, response, next, error),
    );
  }

  private refuse(request: Request, response: Response, next: NextFunction, error: unknown): void {
    if (!(error instanceof ApiError) || !this.limiter.stateOf(request).artifact) return next(error);
    for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
    response.status(error.getStatus());
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    response.setHeader('Cache-Control', 'no-store');
    response.end(request.method === 'HEAD' ? undefined : PLAIN_TEXT[error.getStatus()]);
  }
}
