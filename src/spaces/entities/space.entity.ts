import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { JoinMode, SiteMode } from '../domain/space-rules';
import type { StoredApplicationQuestion } from '../domain/space-views';

/** A link as the owners entered it; title and image are resolved metadata, filled in later. */
export interface StoredSpaceLink {
  url: string;
  label: string | null;
  description: string | null;
}

export type { StoredApplicationQuestion } from '../domain/space-views';

/** Rows the public directory (GET /v1/spaces) lists: public and not deleted. */
const DIRECTORY = '"is_public" AND "deleted_at" IS NULL';

/**
 * A space (api-spec.md "Space"). Soft-deleted rows (`deletedAt` set) are invisible to every route;
 * TypeORM's find and query builders skip them unless asked `withDeleted`.
 *
 * Directory order is `lastActivityAt DESC, id DESC` (a keyset scan backwards over the
 * `idx_spaces_directory*` indexes, one per directory filter); every space the API creates has a
 * `lastActivityAt` (creation is the creator's join), so null means "never active".
 */
@Entity({ name: 'spaces' })
@Index('uq_spaces_domain', ['domain'], { unique: true, where: '"deleted_at" IS NULL' })
@Index('idx_spaces_directory', ['lastActivityAt', 'id'], { where: DIRECTORY })
@Index('idx_spaces_directory_join_mode', ['joinMode', 'lastActivityAt', 'id'], { where: DIRECTORY })
@Index('idx_spaces_directory_category', ['category', 'lastActivityAt', 'id'], { where: DIRECTORY })
@Index('idx_spaces_directory_opt_in', ['discoveryOptIn', 'lastActivityAt', 'id'], { where: DIRECTORY })
export class Space {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** The space's identity chain, created with the origin key (design.md §1). */
  @Index('uq_spaces_did', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  did: string;

  /**
   * The effective subdomain: a claimed one, else the normalized default `space-<32 hex>`. Unique
   * among live spaces, so a deleted space's name is free again.
   */
  @Column({ type: 'varchar', length: 63 })
  domain: string;

  @Column({ name: 'display_name', type: 'varchar', length: 100, nullable: true })
  displayName: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @Column({ name: 'avatar_media_id', type: 'uuid', nullable: true })
  avatarMediaId: string | null;

  /** The header image (the legacy routes call it banner). */
  @Column({ name: 'header_media_id', type: 'uuid', nullable: true })
  headerMediaId: string | null;

  @Column({ name: 'background_media_id', type: 'uuid', nullable: true })
  backgroundMediaId: string | null;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  links: StoredSpaceLink[];

  @Column({ name: 'join_mode', type: 'varchar', length: 16, default: 'closed' })
  joinMode: JoinMode;

  /** The public profile switch: without it the space exists only for its members. */
  @Column({ name: 'is_public', type: 'boolean', default: false })
  isPublic: boolean;

  @Column({ name: 'site_mode', type: 'varchar', length: 16, default: 'join' })
  siteMode: SiteMode;

  @Column({ name: 'subscribe_enabled', type: 'boolean', default: false })
  subscribeEnabled: boolean;

  /** Normalized discovery category (trimmed, whitespace collapsed, lower case), or null. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  category: string | null;

  @Column({ name: 'discovery_opt_in', type: 'boolean', default: false })
  discoveryOptIn: boolean;

  /**
   * The external domain whose control was proven at the last check (POST …/domain-verification);
   * null when none is claimed, the claim has not verified, or the domain attests another identity.
   */
  @Column({ name: 'verified_domain', type: 'varchar', length: 253, nullable: true })
  verifiedDomain: string | null;

  /** The external domain last submitted for verification, verified or not. */
  @Column({ name: 'claimed_domain', type: 'varchar', length: 253, nullable: true })
  claimedDomain: string | null;

  @Column({ name: 'application_questions', type: 'jsonb', default: () => "'[]'" })
  applicationQuestions: StoredApplicationQuestion[];

  /** Active members, kept exact by every membership change under the space's row lock. */
  @Column({ name: 'member_count', type: 'integer', default: 0 })
  memberCount: number;

  /** The public profile content chain, once published (design.md §1). */
  @Column({ name: 'profile_content_id', type: 'varchar', length: 31, nullable: true })
  profileContentId: string | null;

  @Column({ name: 'profile_head_cid', type: 'varchar', length: 80, nullable: true })
  profileHeadCid: string | null;

  /** CID of the document at the chain's head: an unchanged projection is not published again. */
  @Column({ name: 'profile_document_cid', type: 'varchar', length: 80, nullable: true })
  profileDocumentCid: string | null;

  /** Latest activity: creation, joins, approvals; posts later. Millisecond precision (a keyset key). */
  @Column({ name: 'last_activity_at', type: 'timestamptz', precision: 3, nullable: true })
  lastActivityAt: Date | null;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
