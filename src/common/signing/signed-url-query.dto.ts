import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * `?exp=<unix seconds>&sig=<base64url>` of a signed URL. Not validated here: UrlSignature answers
 * anything missing, malformed or tampered with the same 403.
 */
export class SignedUrlQuery {
  @ApiPropertyOptional({ description: 'expiry, unix seconds' })
  @Allow()
  exp?: unknown;

  @ApiPropertyOptional({ description: 'HMAC-SHA256, base64url' })
  @Allow()
  sig?: unknown;
}
