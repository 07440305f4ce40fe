import { Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { conflict, invalidRequest } from '../../common/errors/api-error';
import { RecordedAnswer } from '../../common/errors/recorded-answer';
import { WriteIdempotency } from '../../common/idempotency/write-idempotency';
import { AppConfig } from '../../config/app-config';
import { RequestWrites } from '../database/request-writes';
import { IdempotencyStore, KeyOwner, StoredAnswer } from './idempotency-store';
import { IDEMPOTENCY_KEY_HEADER, requestFingerprint } from './request-fingerprint';

/** 1 to 255 visible ASCII characters (VCHAR). */
const KEY_SYNTAX = /^[\x21-\x7e]{1,255}$/;
/** The headers of an answer that belong to it (per-request ones, RateLimit-*, ids, are the retry's own). */
const RECORDED_HEADERS = ['content-type', 'location'];

/**
 * Idempotency-Key (docs/decisions/0063-idempotency-key.md): the first request with a key reserves it for its caller and
 * records its answer (2xx, 4xx, and a 5xx after something may have been committed); a retry with a
 * new proof but the same method, target and body bytes gets that answer again, byte for byte; the
 * same key with another request, or while the first still runs, is 409. A 5xx that committed
 * nothing gives the key back, so the retry runs. Decisions: docs/decisions/0063-idempotency-key.md.
 */
@Injectable()
export class IdempotentWrites extends WriteIdempotency {
  private readonly logger = new Logger(IdempotentWrites.name);

  constructor(
    private readonly store: IdempotencyStore,
    private readonly writes: RequestWrites,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async begin(request: Request, response: Response, principal: RequestPrincipal): Promise<void> {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const key = keyOf(request);
    if (key === undefined) return;
    // The client that signs chooses the keys: an app acting for a person has keys of its own.
    const owner = {
      principalDid: principal.did,
      clientDid: principal.credential?.audience ?? principal.did,
      key,
    };
    const fingerprint = requestFingerprint(request);
    const now = this.clock.now();
    const reservation = randomUUID();
    const leaseUntil = new Date(now.getTime() + this.config.IDEMPOTENCY_LEASE_SECONDS * 1000);
    const held = await this.store.reserve(owner, { id: reservation, fingerprint, now, leaseUntil });
    if (!held) return this.recordAnswer(request, response, owner, reservation);
    if (!held.fingerprint.equals(fingerprint))
      throw conflict('This Idempotency-Key was used with another request');
    if (held.state === 'in-flight') throw conflict('A request with this Idempotency-Key is in progress');
    throw new RecordedAnswer(held.answer.status, held.answer.headers, held.answer.body);
  }

  /**
   * Holds the response's last write until its answer is recorded (or the key released), so a client
   * that retries on receipt already finds it.
   */
  private recordAnswer(request: Request, response: Response, owner: KeyOwner, reservation: string): void {
    const chunks: Buffer[] = [];
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => Response;
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      chunks.push(bytesOf(chunk, rest[0]));
      return write(chunk, ...rest);
    }) as Response['write'];
    response.end = ((...args: unknown[]) => {
      response.end = end as Response['end'];
      if (args[0] != null && typeof args[0] !== 'function') chunks.push(bytesOf(args[0], args[1]));
      const answer = {
        status: response.statusCode,
        headers: recordedHeaders(response),
        body: Buffer.concat(chunks),
      };
      void this.settle(request, owner, reservation, answer).finally(() => end(...args));
      return response;
    }) as Response['end'];
  }

  private async settle(
    request: Request,
    owner: KeyOwner,
    reservation: string,
    answer: StoredAnswer,
  ): Promise<void> {
    try {
      if (answer.status >= 500 && !this.writes.committedAnything(request)) {
        await this.store.release(owner, reservation);
        return;
      }
      const expiresAt = new Date(this.clock.now().getTime() + this.config.IDEMPOTENCY_TTL_SECONDS * 1000);
      await this.store.complete(owner, reservation, answer, expiresAt);
    } catch (error) {
      // The answer still leaves; the key stays in flight until its lease lapses.
      this.logger.warn(`could not record an idempotent answer: ${(error as Error).message}`);
    }
  }
}

/** The request's key; undefined without the header; a 400 when it is not 1–255 visible ASCII characters. */
function keyOf(request: Request): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && KEY_SYNTAX.test(value)) return value;
  throw invalidRequest('Invalid request', [
    { path: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' },
  ]);
}

function recordedHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of RECORDED_HEADERS) {
    const value = response.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

function bytesOf(chunk: unknown, encoding: unknown): Buffer {
  if (typeof chunk === 'string')
    return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  return Buffer.from(chunk as Uint8Array);
}
