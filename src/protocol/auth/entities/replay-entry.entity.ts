import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A write proof's (signer, jti) pair, remembered until it could no longer verify (design.md §3). */
@Entity({ name: 'replay_jtis' })
export class ReplayEntry {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  did: string;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  jti: string;

  @Index('idx_replay_jtis_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
