import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The app's cursor format (design.md §7, src/common/pagination/cursor-codec.ts) done by hand:
 * the keyset values as JSON, AES-256-GCM under a key derived from CURSOR_SECRET, the listing name
 * as associated data, `base64url(iv ‖ ciphertext ‖ tag)`. The twin gets the app's CURSOR_SECRET,
 * so a cursor either side issued opens the same page on the other.
 */
export type KeysetValue = string | number | boolean | null;

const IV_BYTES = 12;
const TAG_BYTES = 16;

export class TwinCursors {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', Buffer.from(secret), Buffer.alloc(0), 'plat cursor v1', 32));
  }

  encode(listing: string, values: KeysetValue[]): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(listing));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** The keyset values, or null for a cursor that does not open under this listing. */
  decode(listing: string, cursor: string): KeysetValue[] | null {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
    const bytes = Buffer.from(cursor, 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES))
        .setAAD(Buffer.from(listing))
        .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const text = Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      const values: unknown = JSON.parse(text);
      return Array.isArray(values) ? (values as KeysetValue[]) : null;
    } catch {
      return null;
    }
  }
}
