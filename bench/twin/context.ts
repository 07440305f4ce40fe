import type { IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import type { TwinCursors } from './cursors';

/** What a twin handler gets: the pool, the raw request and its body, the run's settings. */
export interface TwinContext {
  pool: Pool;
  request: IncomingMessage;
  /** The request URL parsed against the twin's origin. */
  url: URL;
  body: Buffer;
  cursors: TwinCursors;
  /** SPACES_WEB_DOMAIN as the app has it (canonical URIs). */
  webDomain: string;
  /** The app's local media store (MEDIA_DIR, absolute). */
  mediaDir: string;
}

/**
 * The answer: the status and the JSON text (the twin writes the headers), or a file streamed with
 * the headers given (beside the twin's own: security headers, request id).
 */
export type TwinAnswer =
  | { status: number; json: string }
  | { status: number; file: { path: string; headers: Record<string, string | number> } };

export type TwinHandler = (context: TwinContext) => Promise<TwinAnswer>;

export const answer = (value: unknown, status = 200): TwinAnswer => ({ status, json: JSON.stringify(value) });

/**
 * A request the twin was not written for (a missing row, a refused proof): the bench only sends
 * requests the app answers 2xx, so this shows up in verify as a status difference, loudly.
 */
export class TwinRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** `$first, $first+1, …` for an IN list of `count` parameters (as TypeORM writes `In([...])`). */
export function placeholders(count: number, first = 1): string {
  return Array.from({ length: count }, (_, i) => `$${first + i}`).join(', ');
}

/** Wire id of a uuid (`post_<32 hex>`). */
export const wireId = (prefix: string, uuid: string) => `${prefix}_${uuid.replace(/-/g, '')}`;

/** The uuid of a wire id of this prefix, or null. */
export function uuidOf(prefix: string, wire: string): string | null {
  const hex = new RegExp(`^${prefix}_([0-9a-f]{32})$`).exec(wire)?.[1];
  return hex
    ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    : null;
}
