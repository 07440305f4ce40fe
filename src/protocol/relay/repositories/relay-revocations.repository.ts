import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../../../infrastructure/database/statements';

/** The relay's fixed SQL on `relay_revocations` (docs/decisions/0131-a-repository-per-module.md). */
export const RELAY_REVOCATIONS_STATEMENTS = defineStatements('RelayRevocationsRepository', {
  /**
   * Whether a revocation of credential $1 is held: by any issuer, by issuer $2 only, signed at or
   * before $2 (`asOf`), or both (issuer $2, at or before $3).
   */
  revoked: {
    any: 'SELECT 1 FROM relay_revocations r WHERE r.credential_cid = $1 LIMIT 1',
    byIssuer: 'SELECT 1 FROM relay_revocations r WHERE r.credential_cid = $1 AND r.issuer_did = $2 LIMIT 1',
    asOf: 'SELECT 1 FROM relay_revocations r WHERE r.credential_cid = $1 AND r.created_at <= $2 LIMIT 1',
    byIssuerAsOf:
      'SELECT 1 FROM relay_revocations r WHERE r.credential_cid = $1 AND r.issuer_did = $2 ' +
      'AND r.created_at <= $3 LIMIT 1',
  },
  /**
   * One row per (credential, issuer); the earliest revocation sets the as-of boundary ($1 credential,
   * $2 issuer, $3 revocation CID, $4 its createdAt).
   */
  upsert: `INSERT INTO relay_revocations (credential_cid, issuer_did, revocation_cid, created_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (credential_cid, issuer_did) DO UPDATE
         SET revocation_cid = EXCLUDED.revocation_cid, created_at = EXCLUDED.created_at
         WHERE EXCLUDED.created_at < relay_revocations.created_at`,
  /** The revocation of credential $1 by the smallest issuer DID, with its token. */
  statusOf: `SELECT o.jws FROM relay_revocations r JOIN relay_operations o ON o.cid = r.revocation_cid
       WHERE r.credential_cid = $1 ORDER BY r.issuer_did ASC LIMIT 1`,
  /** Issuer $1's revocations by credential CID ($2 after this CID or null, $3 limit). */
  byIssuer: `SELECT r.credential_cid, o.jws FROM relay_revocations r JOIN relay_operations o ON o.cid = r.revocation_cid
       WHERE r.issuer_did = $1 AND ($2::text IS NULL OR r.credential_cid > $2)
       ORDER BY r.credential_cid ASC LIMIT $3`,
});

/** Every statement on `relay_revocations`: the revocation set, keyed by (credential, issuer). */
@Injectable()
export class RelayRevocationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Whether a revocation counts (see RELAY_REVOCATIONS_STATEMENTS.revoked). */
  async isRevoked(
    credentialCid: string,
    issuerDid: string | undefined,
    asOf: string | undefined,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const { revoked } = RELAY_REVOCATIONS_STATEMENTS;
    const [statement, params] =
      issuerDid === undefined
        ? asOf === undefined
          ? [revoked.any, [credentialCid]]
          : [revoked.asOf, [credentialCid, asOf]]
        : asOf === undefined
          ? [revoked.byIssuer, [credentialCid, issuerDid]]
          : [revoked.byIssuerAsOf, [credentialCid, issuerDid, asOf]];
    const rows = await runner.query<unknown[]>(statement, params);
    return rows.length > 0;
  }

  async upsert(
    revocation: { credentialCid: string; issuerDid: string; revocationCid: string; createdAt: string },
    runner: EntityManager,
  ): Promise<void> {
    await runner.query(RELAY_REVOCATIONS_STATEMENTS.upsert, [
      revocation.credentialCid,
      revocation.issuerDid,
      revocation.revocationCid,
      revocation.createdAt,
    ]);
  }

  statusOf(credentialCid: string): Promise<{ jws: string }[]> {
    return this.dataSource.query(RELAY_REVOCATIONS_STATEMENTS.statusOf, [credentialCid]);
  }

  byIssuer(
    did: string,
    after: string | null,
    limit: number,
  ): Promise<{ credential_cid: string; jws: string }[]> {
    return this.dataSource.query(RELAY_REVOCATIONS_STATEMENTS.byIssuer, [did, after, limit]);
  }
}
