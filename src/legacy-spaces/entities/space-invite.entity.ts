import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { JoinModeOverride } from '../../spaces';

/**
 * An admin's invite link. At most one unrevoked invite per admin and space: creating a new one
 * revokes the old. An invite admits while unrevoked, unexpired and with uses left.
 */
@Entity({ name: 'space_invites' })
@Index('uq_space_invites_current', ['spaceId', 'creatorDid'], { unique: true, where: '"revoked_at" IS NULL' })
export class SpaceInvite {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** A foreign key to the spaces module's table by name only: no relation to its entity. */
  @Column({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column({ name: 'creator_did', type: 'varchar', length: 64 })
  creatorDid: string;

  /** Random URL-safe code (128 bits, base64url). */
  @Index('uq_space_invites_code', { unique: true })
  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ name: 'max_uses', type: 'integer' })
  maxUses: number;

  @Column({ type: 'integer', default: 0 })
  uses: number;

  @Column({ name: 'join_mode_override', type: 'varchar', length: 16 })
  joinModeOverride: JoinModeOverride;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
