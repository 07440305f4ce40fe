import type { Request } from 'express';

/**
 * Work that must be done before an error response leaves, so a client acting on that response sees
 * its effect (the replay store gives back a refused write's `jti`). Provided by the module that owns
 * the work; the global exception filter awaits it, and still answers if it fails.
 */
export interface ErrorResponseHooks {
  beforeErrorResponse(request: Request, status: number): Promise<void>;
}

export const ERROR_RESPONSE_HOOKS = Symbol('ErrorResponseHooks');
