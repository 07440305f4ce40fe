import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { MemberRole, MembershipStatus } from '../domain/space-rules';
import { Space } from './space.entity';

/**
 * One person's standing in one space, kept as a single row through joins, leaves, kicks and bans.
 * Active members are rows with status `active`; `joinedAt` is the latest join.
 */
@Entity({ name: 'space_memberships' })
@Index('idx_space_memberships_active_by_space', ['spaceId', 'joinedAt', 'memberDid'], {
  where: `"status" = 'active'`,
})
@Index('idx_space_memberships_active_by_member', ['memberDid', 'joinedAt', 'spaceId'], {
  where: `"status" = 'active'`,
})
// Every membership row of a person, any status, for their export
// (docs/decisions/0210-personal-export-archive-layout.md).
@Index('idx_space_memberships_member', ['memberDid', 'spaceId'])
@Index('idx_space_memberships_banned', ['spaceId', 'bannedAt', 'memberDid'], { where: `"status" = 'banned'` })
export class SpaceMembership {
  @PrimaryColumn({ name: 'space_id', type: 'uuid' })
  spaceId: string;

  @PrimaryColumn({ name: 'member_did', type: 'varchar', length: 64 })
  memberDid: string;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id' })
  space?: Space;

  @Column({ type: 'varchar', length: 16 })
  role: MemberRole;

  @Column({ type: 'varchar', length: 16 })
  status: MembershipStatus;

  @Column({ name: 'joined_at', type: 'timestamptz', precision: 3, nullable: true })
  joinedAt: Date | null;

  /** The member's personal status message in this space. */
  @Column({ name: 'status_message', type: 'varchar', length: 280, nullable: true })
  statusMessage: string | null;

  @Column({ name: 'banned_at', type: 'timestamptz', precision: 3, nullable: true })
  bannedAt: Date | null;

  @Column({ name: 'banned_by_did', type: 'varchar', length: 64, nullable: true })
  bannedByDid: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
