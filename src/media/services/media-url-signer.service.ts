import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { UrlSignature } from '../../common/signing/url-signature';
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

/**
 * Upload URLs and media-file URLs (design.md §11): `?exp=<unix seconds>&sig=<base64url
 * HMAC-SHA256>` under a key derived from MEDIA_URL_SECRET. The signature covers what the URL
 * grants (the upload of one media, or one media's file under its name) and the expiry, not the
 * URL's bytes, so any valid percent-encoding of the same path verifies and no other path does.
 */
@Injectable()
export class MediaUrlSignerService {
  private readonly signature: UrlSignature;

  constructor(config: AppConfig, clock: Clock) {
    this.signature = new UrlSignature(config.MEDIA_URL_SECRET, 'plat media url v1', clock);
  }

  /** Unix seconds `ttlSeconds` from now. */
  expiryIn(ttlSeconds: number): number {
    return this.signature.expiryIn(ttlSeconds);
  }

  /** A signature valid until `exp` (unix seconds). */
  sign(target: SignedTarget, exp: number): SignedQuery {
    return { exp, sig: this.signature.sign(fieldsOf(target), exp) };
  }

  /** 403 unless `exp` and `sig` are well formed, the signature is this target's and not expired. */
  verify(target: SignedTarget, exp: unknown, sig: unknown): void {
    this.signature.verify(fieldsOf(target), exp, sig);
  }
}

function fieldsOf(target: SignedTarget): string[] {
  return target.kind === 'file'
    ? [target.kind, target.mediaId, target.filename]
    : [target.kind, target.mediaId];
}

/** `?exp=…&sig=…` of a signed URL. */
export function signedQueryString(query: SignedQuery): string {
  return `exp=${query.exp}&sig=${query.sig}`;
}
