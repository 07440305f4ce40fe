import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { BodyShapeError, jsonShapeViolation, RefusedBody } from '../../common/validation/body-shape';
import type { AppConfig } from '../../config/app-config';
import { noteBodyBytes } from '../idempotency/request-fingerprint';

/**
 * The JSON body parser's `verify`: sees the body's bytes before they are parsed. Refuses bytes that
 * are not UTF-8 (the parser would turn them into U+FFFD and store it) and a body wider or deeper
 * than BODY_MAX_MEMBERS / BODY_MAX_DEPTH (parsing one costs CPU in proportion to its members, stalling the replica;
 * docs/decisions/0022-request-shape-bodies-paths-methods-query-parameters.md); keeps the digest
 * an Idempotency-Key compares.
 */
export function bodyBytesInspector(config: AppConfig) {
  const shape = { maxMembers: config.BODY_MAX_MEMBERS, maxDepth: config.BODY_MAX_DEPTH };
  return (request: IncomingMessage, _response: unknown, body: Buffer): void => {
    if (!isUtf8(body)) throw Object.assign(new Error('request body is not UTF-8'), { status: 400 });
    noteBodyBytes(request, body);
    const excess = jsonShapeViolation(body, shape);
    if (excess) throw new BodyShapeError(excess);
  };
}

/**
 * Right after the body parser: a body refused by its shape continues to its route as a
 * `RefusedBody`, which the validation pipe answers with a 400 in the route's own envelope
 * (relay and key-proof routes have theirs). Other parser errors go on to the exception filter.
 */
export function refusedBodyHandler(
  error: unknown,
  request: Request,
  _response: Response,
  next: NextFunction,
): void {
  if (!(error instanceof BodyShapeError)) return next(error);
  request.body = new RefusedBody(error.detail);
  next();
}
