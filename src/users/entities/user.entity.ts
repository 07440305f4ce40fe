import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export interface StoredProfileLink {
  url: string;
  label: string | null;
  description: string | null;
}

/**
 * A platform account claimed for a protocol identity (design.md §2). The public directory
 * (GET /v1/users) lists public accounts by `createdAt`, then id, over `idx_users_directory`.
 */
@Entity({ name: 'users' })
@Index('idx_users_directory', ['createdAt', 'id'], { where: '"is_public"' })
export class User {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Index('uq_users_did', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  did: string;

  /** Stored lower-case; the handle grammar admits nothing else, so uniqueness is case-insensitive. */
  @Index('uq_users_handle', { unique: true })
  @Column({ type: 'varchar', length: 30 })
  handle: string;

  @Column({ name: 'display_name', type: 'varchar', length: 100, nullable: true })
  displayName: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  bio: string | null;

  @Column({ name: 'avatar_id', type: 'uuid', nullable: true })
  avatarId: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  links: StoredProfileLink[];

  @Column({ name: 'is_public', type: 'boolean', default: false })
  isPublic: boolean;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email: string | null;

  @Column({ name: 'verified_domain', type: 'varchar', length: 253, nullable: true })
  verifiedDomain: string | null;

  /** The public profile content chain, once the profile has been public. */
  @Column({ name: 'profile_content_id', type: 'varchar', length: 31, nullable: true })
  profileContentId: string | null;

  @Column({ name: 'profile_head_cid', type: 'varchar', length: 80, nullable: true })
  profileHeadCid: string | null;

  /**
   * When the person's requested erasure is due (DELETE /profile); until then the account is
   * deactivated (docs/decisions/0195-erasure-scheduled-by-the-users-module.md).
   */
  @Index('idx_users_erasure_due', { where: '"erasure_due_at" IS NOT NULL' })
  @Column({ name: 'erasure_due_at', type: 'timestamptz', precision: 3, nullable: true })
  erasureDueAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
