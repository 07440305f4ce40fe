import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { invalidRequest } from '../errors/api-error';

export type KeysetValue = string | number | boolean | null;

export interface CursorPosition {
  /** Which way the page that produced the cursor continues. */
  direction: 'after' | 'before';
  values: KeysetValue[];
}

/**
 * Opaque cursors (design.md §7): base64url of the keyset position, authenticated with an HMAC under
 * CURSOR_SECRET. The listing name is mixed into the MAC so a cursor of one listing is refused by another.
 */
@Injectable()
export class CursorCodec {
  private readonly secret: Buffer;

  constructor(config: AppConfig) {
    this.secret = config.CURSOR_SECRET ? Buffer.from(config.CURSOR_SECRET) : randomBytes(32);
  }

  encode(listing: string, values: KeysetValue[]): string {
    const payload = Buffer.from(JSON.stringify(values)).toString('base64url');
    return `${payload}.${this.mac(listing, payload)}`;
  }

  /**
   * The keyset values of a cursor; any cursor that does not verify is a 400 with one detail at the
   * query member that carried it.
   */
  decode(listing: string, cursor: string, member: CursorMember = 'after'): KeysetValue[] {
    const invalidCursor = () => invalidCursorIn(member);
    const [payload, mac, ...rest] = cursor.split('.');
    if (!payload || !mac || rest.length > 0) throw invalidCursor();
    const expected = Buffer.from(this.mac(listing, payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor();
    const values = parseJson(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(values)) throw invalidCursor();
    return values as KeysetValue[];
  }

  private mac(listing: string, payload: string): string {
    return createHmac('sha256', this.secret).update(`${listing}\n${payload}`).digest('base64url');
  }
}

export type CursorMember = 'after' | 'before';

/** The 400 of a cursor that does not verify (design.md §7), with its detail at that member. */
export const invalidCursorIn = (member: CursorMember) =>
  invalidRequest('Invalid cursor', [{ path: member, message: `${member} is not a cursor of this listing` }]);

/** The 400 of a page asked for in both directions at once. */
export const bothDirections = () =>
  invalidRequest('Pass either after or before, not both', [
    { path: 'before', message: 'pass either after or before, not both' },
  ]);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
