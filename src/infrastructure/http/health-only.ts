import type { NextFunction, Request, Response } from 'express';
import { notFound } from '../../common/errors/api-error';

/**
 * A `worker` process (PLAT_ROLE, docs/decisions/0117-process-roles.md) answers its probes and nothing
 * else: every other path is the constant 404, before it is charged, authenticated or parsed.
 */
export function healthOnly(request: Request, _response: Response, next: NextFunction): void {
  next(request.path.startsWith('/health/') ? undefined : notFound());
}
