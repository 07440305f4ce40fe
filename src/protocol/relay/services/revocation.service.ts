import { Injectable, Logger } from '@nestjs/common';
import { serviceUnavailable } from '../../../common/errors/api-error';
import { RevocationLookup } from '../../auth/domain/identity-directory';
import { isDagCborCid } from '../../core';
import { RelayRevocationsRepository } from '../repositories/relay-revocations.repository';

/**
 * The relay's revocation set, keyed by (credential CID, issuer DID). Answers only from the store:
 * when the store cannot answer, the caller gets a 503 (`serviceUnavailable()`), never a "not revoked".
 */
@Injectable()
export class RevocationService extends RevocationLookup {
  private readonly logger = new Logger(RevocationService.name);

  constructor(private readonly revocations: RelayRevocationsRepository) {
    super();
  }

  /**
   * Is the credential revoked? Pass the credential's issuer whenever it is known: only the issuer's
   * own revocation counts then (CREDENTIALS.md: the set is scoped per issuer so nobody can revoke
   * what they did not issue). Without it, a revocation by any DID counts (the stricter answer).
   * With `asOf` (a createdAt), only revocations signed at or before it count (the as-of rule for
   * re-verifying committed history); without it, any known revocation counts (acceptance).
   */
  async isRevoked(credentialCid: string, issuerDid?: string, asOf?: string): Promise<boolean> {
    if (!isDagCborCid(credentialCid)) return false;
    try {
      return await this.revocations.isRevoked(credentialCid, issuerDid, asOf);
    } catch (error) {
      this.logger.error(`revocation lookup failed: ${(error as Error).message}`);
      throw serviceUnavailable('Revocation status is unavailable');
    }
  }
}
