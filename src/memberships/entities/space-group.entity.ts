import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  ForeignKey,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * A group of a space (design.md §9), with its own identity chain signed by the origin key
 * (design.md §1). Deleting a group deletes the row and, by cascade, its memberships.
 */
@Entity({ name: 'space_groups' })
@Index('idx_space_groups_space', ['spaceId', 'id'])
export class SpaceGroup {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** A foreign key to the spaces module's table by name only: no relation to its entity. */
  @Column({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Index('idx_space_groups_did', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  did: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  /** A palette token (GROUP_COLORS), or null. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  color: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
