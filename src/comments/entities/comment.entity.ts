import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A comment on a post (api-spec.md "Comment"). Threads are one level deep: a reply's
 * `parentCommentId` is always a root. `activityAt` orders roots by their latest reply; on a reply it
 * is its own publication. A deleted comment keeps its row (its replies stay) with a null body.
 */
@Entity({ name: 'comments' })
@Index('idx_comments_roots', ['postId', 'activityAt', 'id'], { where: '"parent_comment_id" IS NULL' })
@Index('idx_comments_replies', ['parentCommentId', 'publishedAt', 'id'])
// A person's comments in order, for their export (docs/decisions/0210-personal-export-archive-layout.md).
@Index('idx_comments_author', ['authorDid', 'publishedAt', 'id'])
// A space's export reads its comments by time (docs/decisions/0216-space-export-archive-layout.md).
@Index('idx_comments_space', ['spaceId', 'publishedAt', 'id'])
// The full-text index the search module reads through the view searchable_comments (created by its
// migration: a GIN index TypeORM cannot declare; docs/decisions/0180-search-indexes-on-the-owners-tables.md).
@Index('idx_comments_search', { synchronize: false })
export class Comment {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  // A foreign key to the posts module's table by name only: no relation to its entity.
  @Column({ name: 'post_id', type: 'uuid' })
  @ForeignKey('posts', { onDelete: 'CASCADE' })
  postId: string;

  /** The post's space, repeated so `/v1/spaces/{space}/comments/{id}` resolves without a join. */
  @Column({ name: 'space_id', type: 'uuid' })
  spaceId: string;

  @Column({ name: 'parent_comment_id', type: 'uuid', nullable: true })
  parentCommentId: string | null;

  @Column({ name: 'author_did', type: 'varchar', length: 64 })
  authorDid: string;

  @Column({ type: 'text', nullable: true })
  body: string | null;

  @Column({ name: 'attachment_ids', type: 'jsonb', default: () => "'[]'" })
  attachmentIds: string[];

  @Column({ name: 'upvote_count', type: 'integer', default: 0 })
  upvoteCount: number;

  @Column({ name: 'reply_count', type: 'integer', default: 0 })
  replyCount: number;

  @Column({ name: 'published_at', type: 'timestamptz', precision: 3 })
  publishedAt: Date;

  @Column({ name: 'activity_at', type: 'timestamptz', precision: 3 })
  activityAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt: Date | null;

  /**
   * The row's full-text vector, set by a trigger in the writing statement from what its readers see
   * (docs/decisions/0180-search-indexes-on-the-owners-tables.md); never read or written here.
   */
  @Column({
    name: 'search_vector',
    type: 'tsvector',
    nullable: true,
    select: false,
    insert: false,
    update: false,
  })
  searchVector?: string | null;
}
