import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The service's origin identity per signing key. The seed is stored only for a key the service
 * generated itself (no ORIGIN_KEY); a key from ORIGIN_KEY is never written to the database.
 */
@Entity({ name: 'relay_origin_keys' })
export class RelayOriginKey {
  /** `z6Mk…` multikey of the Ed25519 public key. */
  @PrimaryColumn({ name: 'public_key', type: 'varchar', length: 64 })
  publicKey: string;

  @Column({ name: 'key_id', type: 'varchar', length: 64 })
  keyId: string;

  @Column({ type: 'varchar', length: 64 })
  did: string;

  @Column({ type: 'bytea', nullable: true })
  seed: Buffer | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt: Date;
}
