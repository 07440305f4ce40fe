import { Injectable } from '@nestjs/common';
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { Clock } from '../../common/clock/clock';
import { forbidden } from '../../common/errors/api-error';
import { AppConfig } from '../../config/app-config';

/** What a signature grants: one upload, reading one media file under one name, or its poster. */
export type SignedTarget =
  | { kind: 'upload'; mediaId: string }
  | { kind: 'poster'; mediaId: string }
  | { kind: 'file'; mediaId: string; filename: string };

export interface SignedQuery {
  exp: number;
  sig: string;
}

const EXP = /^[0-9]{1,12}$/;
const SIG = /^[A-Za-z0-9_-]{43}$/;
const DIGEST_BYTES = 32;

/**
 * Upload URLs and media-file URLs (design.md §11): `?exp=<unix seconds>&sig=<base64url
 * HMAC-SHA256>` under a key derived from MEDIA_URL_SECRET. The signature covers what the URL
 * grants (the upload of one media, or one media's file under its name) and the expiry, not the
 * URL's bytes, so any valid percent-encoding of the same path verifies and no other path does.
 */
@Injectable()
export class MediaUrlSignerService {
  private readonly key: Buffer;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    // Without a configured secret (development), URLs stop verifying when the process restarts.
    const secret = config.MEDIA_URL_SECRET ? Buffer.from(config.MEDIA_URL_SECRET) : randomBytes(32);
    this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'plat media url v1', 32));
  }

  /** Unix seconds `ttlSeconds` from now. */
  expiryIn(ttlSeconds: number): number {
    return Math.floor(this.clock.now().getTime() / 1000) + ttlSeconds;
  }

  /** A signature valid until `exp` (unix seconds). */
  sign(target: SignedTarget, exp: number): SignedQuery {
    return { exp, sig: this.digest(target, exp).toString('base64url') };
  }

  /** 403 unless `exp` and `sig` are well formed, the signature is this target's and not expired. */
  verify(target: SignedTarget, exp: unknown, sig: unknown): void {
    if (typeof exp !== 'string' || typeof sig !== 'string' || !EXP.test(exp) || !SIG.test(sig)) {
      throw forbidden('Missing or malformed URL signature');
    }
    const given = Buffer.from(sig, 'base64url');
    const expected = this.digest(target, Number(exp));
    if (given.length !== DIGEST_BYTES || !timingSafeEqual(given, expected)) {
      throw forbidden('Invalid URL signature');
    }
    if (Number(exp) * 1000 <= this.clock.now().getTime()) throw forbidden('Expired URL signature');
  }

  private digest(target: SignedTarget, exp: number): Buffer {
    const fields = target.kind === 'file' ? [target.mediaId, target.filename] : [target.mediaId];
    return createHmac('sha256', this.key)
      .update(JSON.stringify([target.kind, ...fields, exp]))
      .digest();
  }
}

/** `?exp=…&sig=…` of a signed URL. */
export function signedQueryString(query: SignedQuery): string {
  return `exp=${query.exp}&sig=${query.sig}`;
}
