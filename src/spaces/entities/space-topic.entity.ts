import {
  Column,
  CreateDateColumn,
  DeleteDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { TopicAccessKind } from '../domain/space-rules';
import { Space } from './space.entity';

const LIVE = '"deleted_at" IS NULL';

/**
 * A topic of a space (api-spec.md "Topic"); its `access` decides who reads its posts (design.md
 * §9). Soft-deleted, so posts can keep pointing at it; a deleted topic is 404 everywhere.
 * Listed by `nameKey` (the lower-cased name, byte order), then id.
 */
@Entity({ name: 'space_topics' })
@Index('uq_space_topics_name', ['spaceId', 'nameKey'], { unique: true, where: LIVE })
@Index('idx_space_topics_public', ['spaceId', 'nameKey', 'id'], {
  where: `"access_kind" = 'public' AND ${LIVE}`,
})
export class SpaceTopic {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'space_id', type: 'uuid' })
  spaceId: string;

  @ManyToOne(() => Space, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'space_id' })
  space?: Space;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** The name with whitespace collapsed and lower-cased: unique per space, the listing key. */
  @Column({ name: 'name_key', type: 'varchar', length: 100, collation: 'C' })
  nameKey: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  /** public, signedIn, members, or groups (then `accessGroupIds` names them). */
  @Column({ name: 'access_kind', type: 'varchar', length: 16 })
  accessKind: TopicAccessKind;

  /** Group uuids when `accessKind` is groups; groups are checked for form only (no groups yet). */
  @Column({ name: 'access_group_ids', type: 'jsonb', default: () => "'[]'" })
  accessGroupIds: string[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt: Date | null;
}
