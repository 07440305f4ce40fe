import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { Clock } from '../clock/clock';
import { forbidden } from '../errors/api-error';

const EXP = /^[0-9]{1,12}$/;
const SIG = /^[A-Za-z0-9_-]{43}$/;
const DIGEST_BYTES = 32;

/**
 * The `?exp=<unix seconds>&sig=<base64url HMAC-SHA256>` of a signed URL (design.md §11): the
 * signature covers what the URL grants (`fields`) and the expiry, under a key derived from `secret`
 * for one `purpose` alone, so a signature of one use never opens another. Without a secret
 * (development) the key is random: URLs stop verifying when the process restarts.
 */
export class UrlSignature {
  private readonly key: Buffer;

  constructor(
    secret: string | undefined,
    purpose: string,
    private readonly clock: Clock,
  ) {
    const material = secret ? Buffer.from(secret) : randomBytes(32);
    this.key = Buffer.from(hkdfSync('sha256', material, Buffer.alloc(0), purpose, DIGEST_BYTES));
  }

  /** Unix seconds `ttlSeconds` from now. */
  expiryIn(ttlSeconds: number): number {
    return Math.floor(this.clock.now().getTime() / 1000) + ttlSeconds;
  }

  /** The base64url signature of `fields`, valid until `exp` (unix seconds). */
  sign(fields: readonly unknown[], exp: number): string {
    return this.digest(fields, exp).toString('base64url');
  }

  /** 403 unless `exp` and `sig` are well formed, the signature is of `fields` and not expired. */
  verify(fields: readonly unknown[], exp: unknown, sig: unknown): void {
    if (typeof exp !== 'string' || typeof sig !== 'string' || !EXP.test(exp) || !SIG.test(sig)) {
      throw forbidden('Missing or malformed URL signature');
    }
    const given = Buffer.from(sig, 'base64url');
    const expected = this.digest(fields, Number(exp));
    if (given.length !== DIGEST_BYTES || !timingSafeEqual(given, expected)) {
      throw forbidden('Invalid URL signature');
    }
    if (Number(exp) * 1000 <= this.clock.now().getTime()) throw forbidden('Expired URL signature');
  }

  private digest(fields: readonly unknown[], exp: number): Buffer {
    return createHmac('sha256', this.key)
      .update(JSON.stringify([...fields, exp]))
      .digest();
  }
}
