import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * How many live posts a topic holds, by format, kept by `PostCountsService` inside every post write's
 * transaction so listings and the space's `privatePostCountSummary` never count posts per request.
 * Posts of a deleted topic stay counted here; readers only sum live topics.
 */
@Entity({ name: 'post_topic_counts' })
@Index('idx_post_topic_counts_space', ['spaceId'])
export class PostTopicCount {
  @PrimaryColumn({ name: 'topic_id', type: 'uuid' })
  @ForeignKey('space_topics', { onDelete: 'CASCADE' })
  topicId: string;

  @Column({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  /** Live posts without a title (short-post). */
  @Column({ name: 'short_posts', type: 'integer', default: 0 })
  shortPosts: number;

  /** Live posts with a title (long-post). */
  @Column({ name: 'long_posts', type: 'integer', default: 0 })
  longPosts: number;
}
