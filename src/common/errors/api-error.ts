import { HttpException, HttpStatus } from '@nestjs/common';

export const ERROR_CODES: Record<number, string> = {
  400: 'E_INVALID_REQUEST',
  401: 'E_UNAUTHORIZED',
  403: 'E_FORBIDDEN',
  404: 'E_NOT_FOUND',
  409: 'E_CONFLICT',
  413: 'E_PAYLOAD_TOO_LARGE',
  416: 'E_RANGE_NOT_SATISFIABLE',
  429: 'E_RATE_LIMITED',
  500: 'E_INTERNAL',
  503: 'E_SERVICE_UNAVAILABLE',
};

/** The one 404 body (design.md §5): same bytes for every hidden, unknown or malformed thing. */
export const NOT_FOUND_BODY = '{"code":"E_NOT_FOUND","message":"Not found"}';

export interface ValidationDetail {
  path: string;
  message: string;
}

export interface ApiErrorBody {
  code: string;
  message: string;
  [extra: string]: unknown;
}

/** An error whose body is exactly what the client sees: `{code, message, ...extra}`. */
export class ApiError extends HttpException {
  constructor(
    status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }

  get body(): ApiErrorBody {
    return { code: ERROR_CODES[this.getStatus()] ?? 'E_INTERNAL', message: this.message, ...this.extra };
  }
}

/**
 * A 403 because the presented credential is broken (invalid, expired, revoked) or does not grant the
 * route's scopes, as opposed to a refusal of the caller's own standing or key.
 */
export class CredentialRefused extends ApiError {
  constructor(message: string) {
    super(HttpStatus.FORBIDDEN, message);
  }
}

/** A 400 lists at most this many details: the answer stays small however bad the input. */
export const MAX_DETAILS = 20;

export const invalidRequest = (message: string, details?: ValidationDetail[]) =>
  new ApiError(HttpStatus.BAD_REQUEST, message, details ? { details: details.slice(0, MAX_DETAILS) } : {});
export const unauthorized = (message = 'Unauthorized') => new ApiError(HttpStatus.UNAUTHORIZED, message);
export const forbidden = (message = 'Forbidden') => new ApiError(HttpStatus.FORBIDDEN, message);
export const notFound = () => new ApiError(HttpStatus.NOT_FOUND, 'Not found');
export const conflict = (message: string) => new ApiError(HttpStatus.CONFLICT, message);
export const serviceUnavailable = (message = 'Service temporarily unavailable') =>
  new ApiError(HttpStatus.SERVICE_UNAVAILABLE, message);
