import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One `Idempotency-Key` of one caller: the person acting and the client signing (the same DID for a
 * bare identity proof, the app for a credential), the request it was first used with and, once
 * answered, that answer. Rows whose `expires_at` passed count as absent (an in-flight row's lease,
 * a completed row's TTL) and are swept.
 */
@Entity({ name: 'idempotency_keys' })
export class IdempotencyKey {
  @PrimaryColumn({ name: 'principal_did', type: 'varchar', length: 64 })
  principalDid: string;

  @PrimaryColumn({ name: 'client_did', type: 'varchar', length: 64 })
  clientDid: string;

  @PrimaryColumn({ type: 'varchar', length: 255 })
  key: string;

  /** Which request holds the row, so a request whose lease was taken over cannot overwrite it. */
  @Column({ type: 'uuid' })
  reservation: string;

  /** SHA-256 of the method, the request target and the body bytes. */
  @Column({ type: 'bytea' })
  fingerprint: Buffer;

  @Column({ type: 'varchar', length: 16 })
  state: 'in-flight' | 'completed';

  @Column({ type: 'smallint', nullable: true })
  status: number | null;

  /** The answer's content headers (`content-type`, `location`), by lower-case name. */
  @Column({ type: 'jsonb', nullable: true })
  headers: Record<string, string> | null;

  @Column({ type: 'bytea', nullable: true })
  body: Buffer | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Index('idx_idempotency_keys_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt: Date;
}
