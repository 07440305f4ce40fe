import { Injectable } from '@nestjs/common';
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { Clock } from '../../common/clock/clock';
import { forbidden } from '../../common/errors/api-error';
import { AppConfig } from '../../config/app-config';

const EXP = /^[0-9]{1,12}$/;
const SIG = /^[A-Za-z0-9_-]{43}$/;

/**
 * Download URLs of export archives (docs/decisions/0213-export-expiry-and-signed-download.md):
 * `?exp=<unix seconds>&sig=<base64url HMAC-SHA256>` over the export's id and the expiry, under a
 * key derived from MEDIA_URL_SECRET for this use alone (a media URL's signature never opens an
 * archive, nor the reverse), as media's signed URLs are.
 */
@Injectable()
export class ExportUrlSignerService {
  private readonly key: Buffer;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    const secret = config.MEDIA_URL_SECRET ? Buffer.from(config.MEDIA_URL_SECRET) : randomBytes(32);
    this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'plat export url v1', 32));
  }

  /** `exp=…&sig=…` for the archive of `exportId` (its wire id), valid until `exp` (unix seconds). */
  sign(exportId: string, exp: number): string {
    return `exp=${exp}&sig=${this.digest(exportId, exp).toString('base64url')}`;
  }

  /** 403 unless the signature is this export's, well formed and not expired. */
  verify(exportId: string, exp: unknown, sig: unknown): void {
    if (typeof exp !== 'string' || typeof sig !== 'string' || !EXP.test(exp) || !SIG.test(sig)) {
      throw forbidden('Missing or malformed URL signature');
    }
    const given = Buffer.from(sig, 'base64url');
    const expected = this.digest(exportId, Number(exp));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw forbidden('Invalid URL signature');
    }
    if (Number(exp) * 1000 <= this.clock.now().getTime()) throw forbidden('Expired URL signature');
  }

  private digest(exportId: string, exp: number): Buffer {
    return createHmac('sha256', this.key)
      .update(JSON.stringify(['archive', exportId, exp]))
      .digest();
  }
}
