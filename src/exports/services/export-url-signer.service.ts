import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { UrlSignature } from '../../common/signing/url-signature';
import { AppConfig } from '../../config/app-config';

/**
 * Download URLs of export archives (docs/decisions/0213-export-expiry-and-signed-download.md):
 * `?exp=<unix seconds>&sig=<base64url HMAC-SHA256>` over the export's id and the expiry, under a
 * key derived from MEDIA_URL_SECRET for this use alone (a media URL's signature never opens an
 * archive, nor the reverse), as media's signed URLs are.
 */
@Injectable()
export class ExportUrlSignerService {
  private readonly signature: UrlSignature;

  constructor(config: AppConfig, clock: Clock) {
    this.signature = new UrlSignature(config.MEDIA_URL_SECRET, 'plat export url v1', clock);
  }

  /** `exp=…&sig=…` for the archive of `exportId` (its wire id), valid until `exp` (unix seconds). */
  sign(exportId: string, exp: number): string {
    return `exp=${exp}&sig=${this.signature.sign(['archive', exportId], exp)}`;
  }

  /** 403 unless the signature is this export's, well formed and not expired. */
  verify(exportId: string, exp: unknown, sig: unknown): void {
    this.signature.verify(['archive', exportId], exp, sig);
  }
}
