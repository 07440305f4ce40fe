import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Inject,
  Logger,
  Optional,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { isDatabaseUnavailable } from '../../infrastructure/database/database-unavailable';
import { ApiError, ApiErrorBody, ERROR_CODES, NOT_FOUND_BODY } from './api-error';
import { ERROR_RESPONSE_HOOKS, ErrorResponseHooks } from './error-response-hooks';
import { RecordedAnswer } from './recorded-answer';

interface ErrorResponse {
  status: number;
  body: ApiErrorBody;
  headers: Record<string, string>;
}

const MESSAGES: Record<number, string> = {
  400: 'Malformed request body',
  401: 'Unauthorized',
  403: 'Forbidden',
  409: 'Conflict',
  413: 'Payload too large',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Service temporarily unavailable',
};

/**
 * Builds every error body of the service (design.md §5). A database that cannot answer is a 503
 * (`isDatabaseUnavailable`); other unexpected exceptions are logged with their stack and answered
 * as a bare 500 so no stack, SQL or driver message reaches the client.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(@Optional() @Inject(ERROR_RESPONSE_HOOKS) private readonly hooks?: ErrorResponseHooks) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    // Not an error: the first answer to this Idempotency-Key, given again (its retry's jti stays spent).
    if (exception instanceof RecordedAnswer) return exception.writeTo(response);
    const described = this.describe(exception);
    if (!this.hooks) return this.send(response, described);
    this.hooks.beforeErrorResponse(http.getRequest<Request>(), described.status).then(
      () => this.send(response, described),
      (error: unknown) => {
        this.logger.warn(`error response hook failed: ${error instanceof Error ? error.message : error}`);
        this.send(response, described);
      },
    );
  }

  private send(response: Response, { status, body, headers }: ErrorResponse): void {
    if (response.headersSent) {
      response.end();
      return;
    }
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    response.status(status);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Cache-Control', 'no-store');
    const payload = status === HttpStatus.NOT_FOUND ? NOT_FOUND_BODY : JSON.stringify(body);
    // Set explicitly so a HEAD answer carries the same header set as the GET one (Node omits it).
    response.setHeader('Content-Length', Buffer.byteLength(payload));
    response.end(payload);
  }

  private describe(exception: unknown): ErrorResponse {
    if (exception instanceof ApiError) {
      return { status: exception.getStatus(), body: exception.body, headers: exception.headers };
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      const status = exception.getStatus() in ERROR_CODES ? exception.getStatus() : HttpStatus.BAD_REQUEST;
      return { status, body: { code: ERROR_CODES[status], message: MESSAGES[status] }, headers: {} };
    }
    const parserStatus = clientErrorStatusOf(exception);
    if (parserStatus) {
      return {
        status: parserStatus,
        body: { code: ERROR_CODES[parserStatus], message: MESSAGES[parserStatus] },
        headers: {},
      };
    }
    if (exception instanceof HttpException && exception.getStatus() === HttpStatus.SERVICE_UNAVAILABLE) {
      return { status: 503, body: { code: ERROR_CODES[503], message: MESSAGES[503] }, headers: {} };
    }
    if (isDatabaseUnavailable(exception)) {
      // Expected while the database is away; the pool reconnects on its own.
      this.logger.warn(`database unavailable: ${exception instanceof Error ? exception.message : exception}`);
      return { status: 503, body: { code: ERROR_CODES[503], message: MESSAGES[503] }, headers: {} };
    }
    this.logger.error(
      exception instanceof Error ? (exception.stack ?? exception.message) : String(exception),
    );
    return { status: 500, body: { code: ERROR_CODES[500], message: MESSAGES[500] }, headers: {} };
  }
}

/** Client errors raised by Express middleware (body-parser's http-errors: too large, bad charset, ...). */
function clientErrorStatusOf(exception: unknown): number | undefined {
  const candidate = exception as { expose?: unknown; status?: unknown } | null;
  if (!candidate || candidate.expose !== true || typeof candidate.status !== 'number') return undefined;
  if (candidate.status < 400 || candidate.status >= 500) return undefined;
  return candidate.status in ERROR_CODES ? candidate.status : HttpStatus.BAD_REQUEST;
}
