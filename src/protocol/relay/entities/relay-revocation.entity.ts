import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The revocation set, keyed by (credential CID, issuer DID) as CREDENTIALS.md "Relay Enforcement"
 * requires: a DID can only revoke what it issued, so a revocation by anyone else never counts
 * against the real issuer's credential.
 */
@Entity({ name: 'relay_revocations' })
@Index('idx_relay_revocations_issuer', ['issuerDid', 'credentialCid'])
export class RelayRevocation {
  @PrimaryColumn({ name: 'credential_cid', type: 'varchar', length: 64, collation: 'C' })
  credentialCid: string;

  @PrimaryColumn({ name: 'issuer_did', type: 'varchar', length: 64, collation: 'C' })
  issuerDid: string;

  /** The revocation operation (its JWS is in relay_operations). */
  @Column({ name: 'revocation_cid', type: 'varchar', length: 64, collation: 'C' })
  revocationCid: string;

  /** The revocation's signed createdAt: the boundary of the as-of rule. */
  @Column({ name: 'created_at', type: 'varchar', length: 24, collation: 'C' })
  createdAt: string;
}
