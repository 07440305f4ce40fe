import type { Request, Response } from 'express';
import type { RequestPrincipal } from '../auth/request-authenticator';

/**
 * `Idempotency-Key` on authenticated writes (docs/decisions/0063-idempotency-key.md). The route access guard calls it once
 * the caller is known and before the handler runs; `infrastructure/idempotency` implements it.
 */
export abstract class WriteIdempotency {
  /**
   * Returns at once for a read or a request without the header. Otherwise reserves the key for the
   * principal and records the answer when it leaves, or throws: the recorded answer of an earlier
   * identical request (`RecordedAnswer`), a 409 (the key is in use or was used with another
   * request) or a 400 (a malformed key).
   */
  abstract begin(request: Request, response: Response, principal: RequestPrincipal): Promise<void>;
}
