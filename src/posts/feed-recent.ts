import { SelectQueryBuilder } from 'typeorm';
import { KeysetSeek, readOrder, seekComparator } from '../common/pagination/keyset';
import { Post } from './entities/post.entity';

/**
 * Narrows a feed page (posts aliased `post`, newest first by (published_at, id)) to the newest
 * posts of each of its topics. For `topic_id IN (…)` PostgreSQL cannot merge one index scan per
 * topic: it sorted every post of every topic instead
 * (docs/decisions/0083-the-feeds-page-query-is-bounded-per-topic.md). Read
 * per topic, index-only from idx_posts_topic_recent, at most `take` keys past the cursor, and keep
 * the `take` newest of them: a page then costs the same whatever the size of the spaces.
 */
export function narrowToRecentOfTopics(
  query: SelectQueryBuilder<Post>,
  topicIds: string[],
  { values, backward, take }: KeysetSeek,
): void {
  const order = readOrder('DESC', backward);
  const seek = values
    ? `AND (recent.published_at, recent.id) ${seekComparator(order)} (CAST(:feedSeekAt AS timestamptz), CAST(:feedSeekId AS uuid))`
    : '';
  query.andWhere(
    `post.id IN (
      SELECT picked.id FROM unnest(CAST(:feedTopicIds AS uuid[])) AS topic(id)
      CROSS JOIN LATERAL (
        SELECT recent.id, recent.published_at FROM posts recent
        WHERE recent.topic_id = topic.id AND recent.deleted_at IS NULL ${seek}
        ORDER BY recent.published_at ${order}, recent.id ${order} LIMIT ${take}
      ) picked
      ORDER BY picked.published_at ${order}, picked.id ${order} LIMIT ${take})`,
    { feedTopicIds: topicIds, ...(values ? { feedSeekAt: values[0], feedSeekId: values[1] } : {}) },
  );
}
