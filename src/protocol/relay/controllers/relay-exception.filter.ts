import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import { AllExceptionsFilter } from '../../../common/errors/all-exceptions.filter';
import { ApiError, notFound } from '../../../common/errors/api-error';
import { RelayError } from '../domain/relay-error';

/**
 * Relay routes answer 4xx failures as `{error}` (plus `details` on a refused ingest body), except
 * 404: unknown and malformed ids get the service's constant 404 body like every other route
 * (design.md §5 "everywhere"). 5xx and everything else go through the global filter unchanged.
 */
@Catch()
export class RelayExceptionFilter implements ExceptionFilter {
  private readonly fallback = new AllExceptionsFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    if (exception instanceof RelayError && exception.status === HttpStatus.NOT_FOUND) {
      this.fallback.catch(notFound(), host);
      return;
    }
    const relay = this.asRelayError(exception);
    if (!relay) {
      this.fallback.catch(exception, host);
      return;
    }
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) {
      response.end();
      return;
    }
    const body = relay.details ? { error: relay.message, details: relay.details } : { error: relay.message };
    response.status(relay.status);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Cache-Control', 'no-store');
    response.end(JSON.stringify(body));
  }

  private asRelayError(exception: unknown): RelayError | null {
    if (exception instanceof RelayError) return exception;
    // The global validation pipe's 400s (and the cursor codec's) on relay routes.
    if (exception instanceof ApiError && exception.getStatus() === HttpStatus.BAD_REQUEST) {
      const details = exception.extra.details;
      return new RelayError(
        HttpStatus.BAD_REQUEST,
        exception.message,
        Array.isArray(details) ? details : undefined,
      );
    }
    return null;
  }
}
