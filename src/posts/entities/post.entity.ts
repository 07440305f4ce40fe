import { Column, DeleteDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A post of a space (api-spec.md "Post card", "Full post"). Who reads it is its topic's `access`
 * (design.md §9). `format` follows the title: long-post with one, short-post without. Counters are
 * kept on the row (updated in the transaction that changes upvotes or comments) so listings never
 * count, and card text (`excerpt`, `display_title`) is computed when the post is written so listings
 * never read `body`. `content_id`/`head_cid` track the post's content chain while it is public.
 */
@Entity({ name: 'posts' })
@Index('idx_posts_space_recent', ['spaceId', 'publishedAt', 'id'], { where: '"deleted_at" IS NULL' })
@Index('idx_posts_topic_recent', ['topicId', 'publishedAt', 'id'], { where: '"deleted_at" IS NULL' })
@Index('idx_posts_author', ['authorDid', 'publishedAt'])
// The full-text index the search module reads through the view searchable_posts (created by its
// migration: a GIN index TypeORM cannot declare; docs/decisions/0180-search-indexes-on-the-owners-tables.md).
@Index('idx_posts_search', { synchronize: false })
export class Post {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  // Foreign keys name the spaces module's tables only: no relation to its entities.
  @Column({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column({ name: 'topic_id', type: 'uuid' })
  @ForeignKey('space_topics', { onDelete: 'CASCADE' })
  topicId: string;

  @Column({ name: 'author_did', type: 'varchar', length: 64 })
  authorDid: string;

  @Column({ type: 'varchar', length: 300, nullable: true })
  title: string | null;

  @Column({ type: 'text' })
  body: string;

  /** The card's `excerpt` of `body`, kept with the post so listings never read the body. */
  @Column({ type: 'text', nullable: true })
  excerpt: string | null;

  /** The card's `displayTitle`: the title, else made from `body`; kept like `excerpt`. */
  @Column({ name: 'display_title', type: 'text', nullable: true })
  displayTitle: string | null;

  /**
   * The `updatedAt` whose title and body `excerpt` and `displayTitle` were computed from. Anything
   * else (null, or older) marks a row written by a release that did not keep the card text.
   */
  @Column({ name: 'card_text_at', type: 'timestamptz', precision: 3, nullable: true })
  cardTextAt: Date | null;

  /** Server-generated from the title or the body's start; mutable (api-spec.md "Mutable aliases"). */
  @Column({ type: 'varchar', length: 100 })
  slug: string;

  /** Ordered media uuids (at most 10; 4 on a short post). */
  @Column({ name: 'attachment_ids', type: 'jsonb', default: () => "'[]'" })
  attachmentIds: string[];

  @Column({ name: 'upvote_count', type: 'integer', default: 0 })
  upvoteCount: number;

  @Column({ name: 'comment_count', type: 'integer', default: 0 })
  commentCount: number;

  @Column({ name: 'is_pinned', type: 'boolean', default: false })
  isPinned: boolean;

  @Column({ name: 'published_at', type: 'timestamptz', precision: 3 })
  publishedAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  @DeleteDateColumn({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt: Date | null;

  @Column({ name: 'content_id', type: 'varchar', length: 64, nullable: true })
  contentId: string | null;

  @Column({ name: 'head_cid', type: 'varchar', length: 128, nullable: true })
  headCid: string | null;

  @Column({ name: 'document_cid', type: 'varchar', length: 128, nullable: true })
  documentCid: string | null;

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
