import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { invalidRequest } from '../errors/api-error';

export type KeysetValue = string | number | boolean | null;

export interface CursorPosition {
  /** Which way the page that produced the cursor continues. */
  direction: 'after' | 'before';
  values: KeysetValue[];
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Opaque cursors (design.md §7): the keyset position encrypted and authenticated with AES-256-GCM
 * under a key derived from CURSOR_SECRET, the listing name as associated data, so a cursor reveals
 * nothing (a space's exact last activity, a member's join date) and a cursor of one listing is
 * refused by another. `base64url(iv ‖ ciphertext ‖ tag)`, a fresh IV per cursor.
 */
@Injectable()
export class CursorCodec {
  private readonly key: Buffer;

  constructor(config: AppConfig) {
    const secret = config.CURSOR_SECRET ? Buffer.from(config.CURSOR_SECRET) : randomBytes(32);
    this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'plat cursor v1', 32));
  }

  encode(listing: string, values: KeysetValue[]): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(listing));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /**
   * The keyset values of a cursor; any cursor that does not verify is a 400 with one detail at the
   * query member that carried it.
   */
  decode(listing: string, cursor: string, member: CursorMember = 'after'): KeysetValue[] {
    const invalidCursor = () => invalidCursorIn(member);
    if (!BASE64URL.test(cursor)) throw invalidCursor();
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) throw invalidCursor();
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES))
      .setAAD(Buffer.from(listing))
      .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    let text: string;
    try {
      text = Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw invalidCursor();
    }
    const values = parseJson(text);
    if (!Array.isArray(values)) throw invalidCursor();
    return values as KeysetValue[];
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
