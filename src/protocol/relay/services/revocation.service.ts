import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { serviceUnavailable } from '../../../common/errors/api-error';
import { RevocationLookup } from '../../auth/domain/identity-directory';
import { isDagCborCid } from '../../core';
import { RelayRevocation } from '../entities';

/**
 * The relay's revocation set, keyed by (credential CID, issuer DID). Answers only from the store:
 * when the store cannot answer, the caller gets a 503 (`serviceUnavailable()`), never a "not revoked".
 */
@Injectable()
export class RevocationService extends RevocationLookup {
  private readonly logger = new Logger(RevocationService.name);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
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
      return await RevocationService.lookup(this.dataSource.manager, credentialCid, issuerDid, asOf);
    } catch (error) {
      this.logger.error(`revocation lookup failed: ${(error as Error).message}`);
      throw serviceUnavailable('Revocation status is unavailable');
    }
  }

  /** The same question inside an ingest transaction (errors propagate to the transaction). */
  static async lookup(
    manager: EntityManager,
    credentialCid: string,
    issuerDid?: string,
    asOf?: string,
  ): Promise<boolean> {
    const query = manager
      .getRepository(RelayRevocation)
      .createQueryBuilder('r')
      .select('1')
      .where('r.credential_cid = :credentialCid', { credentialCid });
    if (issuerDid !== undefined) query.andWhere('r.issuer_did = :issuerDid', { issuerDid });
    if (asOf !== undefined) query.andWhere('r.created_at <= :asOf', { asOf });
    return (await query.limit(1).getRawOne()) !== undefined;
  }
}
