import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import { AllExceptionsFilter } from '../../common/errors/all-exceptions.filter';
import { ApiError, invalidRequest } from '../../common/errors/api-error';
import { UnknownKeyProofCode } from '../services/key-proof.service';

/** The well-known route's own 404 body (api-spec.md "Anonymous reads"). */
export const UNKNOWN_CODE_BODY = '{"error":"unknown or expired code"}';

/**
 * Errors of the key-proof routes (api-spec.md "Errors"): a 400 is always a bare
 * `{code: E_INVALID_REQUEST, message}` (validation failures lose their `details`), and an unknown
 * or lapsed code on the well-known route is `404 {"error":"unknown or expired code"}`. Everything
 * else is the service-wide error body.
 */
@Catch()
export class KeyProofExceptionsFilter implements ExceptionFilter {
  private readonly common = new AllExceptionsFilter();

  catch(exception: unknown, host: ArgumentsHost): void {
    if (exception instanceof UnknownKeyProofCode) {
      const response = host.switchToHttp().getResponse<Response>();
      response.status(HttpStatus.NOT_FOUND);
      response.setHeader('Content-Type', 'application/json; charset=utf-8');
      response.setHeader('Cache-Control', 'no-store');
      response.end(UNKNOWN_CODE_BODY);
      return;
    }
    if (exception instanceof ApiError && exception.getStatus() === HttpStatus.BAD_REQUEST) {
      const { details: _details, ...rest } = exception.extra;
      this.common.catch(Object.keys(rest).length ? exception : invalidRequest(exception.message), host);
      return;
    }
    this.common.catch(exception, host);
  }
}
