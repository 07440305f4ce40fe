import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** Where a live post counts: its space, its topic and its format (long-post when it has a title). */
export interface CountedPost {
  spaceId: string;
  topicId: string;
  title: string | null;
}

/**
 * The live posts per topic and format (`post_topic_counts`), kept inside the transaction of every
 * post write: create adds, delete takes away, a move or a format change does both. Reads sum the
 * rows of a handful of topics, never the posts.
 */
@Injectable()
export class PostCounts {
  constructor(private readonly dataSource: DataSource) {}

  /** Counts `post` in (+1) or out (-1) of its topic, on the write's `manager`. */
  async add(manager: EntityManager, post: CountedPost, delta: 1 | -1): Promise<void> {
    await manager.query(...countChange(post, delta));
  }

  /** A post moved between topics or changed format: out of where it was, into where it is. */
  async move(manager: EntityManager, before: CountedPost, after: CountedPost): Promise<void> {
    if (before.topicId === after.topicId && (before.title === null) === (after.title === null)) return;
    // Rows are locked in topic order, so two moves in opposite directions cannot deadlock.
    const changes: [CountedPost, 1 | -1][] = [
      [before, -1],
      [after, +1],
    ];
    changes.sort(([a], [b]) => a.topicId.localeCompare(b.topicId));
    for (const [post, delta] of changes) await this.add(manager, post, delta);
  }

  /** Live posts of these topics, of one format or both. */
  async inTopics(topicIds: string[], format?: 'short-post' | 'long-post'): Promise<number> {
    if (topicIds.length === 0) return 0;
    const counted =
      format === 'short-post'
        ? '"short_posts"'
        : format === 'long-post'
          ? '"long_posts"'
          : '"short_posts" + "long_posts"';
    const [row] = await this.dataSource.query<{ n: number }[]>(
      `SELECT COALESCE(sum(${counted}), 0)::int AS n FROM "post_topic_counts" WHERE "topic_id" = ANY($1::uuid[])`,
      [topicIds],
    );
    return row.n;
  }

  /**
   * Live posts of these topics published inside a date range (of one format or both), or null when
   * the range holds more than `cap` posts: at most `cap + 1` entries of `idx_posts_topic_recent`
   * are read (in its order, so the planner walks the index), whatever the range's size.
   */
  async inRange(
    topicIds: string[],
    range: { after?: Date; before?: Date; format?: 'short-post' | 'long-post' },
    cap: number,
  ): Promise<number | null> {
    if (topicIds.length === 0) return 0;
    const conditions = ['"topic_id" = ANY($1::uuid[])', '"deleted_at" IS NULL'];
    const values: unknown[] = [topicIds];
    if (range.after) conditions.push(`"published_at" > $${values.push(range.after)}`);
    if (range.before) conditions.push(`"published_at" < $${values.push(range.before)}`);
    // Without a format filter the title is not needed, and the index alone answers.
    const longness = range.format ? '"title" IS NOT NULL' : 'false';
    const [row] = await this.dataSource.query<{ read: number; long: number }[]>(
      `SELECT count(*)::int AS "read", count(*) FILTER (WHERE "long")::int AS "long"
       FROM (SELECT ${longness} AS "long" FROM "posts" WHERE ${conditions.join(' AND ')}
             ORDER BY "topic_id", "published_at" LIMIT ${cap + 1}) AS "bounded"`,
      values,
    );
    if (row.read > cap) return null;
    if (range.format === 'long-post') return row.long;
    if (range.format === 'short-post') return row.read - row.long;
    return row.read;
  }

  /** Live posts of the space's live topics whose access is not `public` (bound to the space). */
  async privateInSpace(spaceId: string): Promise<number> {
    const [row] = await this.dataSource.query<{ n: number }[]>(
      `SELECT COALESCE(sum(c."short_posts" + c."long_posts"), 0)::int AS n
       FROM "post_topic_counts" c
       JOIN "live_space_topics" t ON t."id" = c."topic_id" AND t."space_id" = $1
       WHERE c."space_id" = $1 AND t."access_kind" <> 'public'`,
      [spaceId],
    );
    return row.n;
  }
}

/**
 * The statement that counts `post` in (+1) or out (-1) of its topic, its parameters numbered after
 * the `after` ones of a statement it joins (as a WITH item). One statement, so concurrent writes to
 * a topic queue on its row and never lose an update.
 */
export function countChange(post: CountedPost, delta: 1 | -1, after = 0): [string, unknown[]] {
  const long = post.title !== null;
  const $ = (index: number) => `$${after + index}`;
  return [
    `INSERT INTO "post_topic_counts" ("topic_id", "space_id", "short_posts", "long_posts")
     VALUES (${$(1)}, ${$(2)}, ${$(3)}, ${$(4)})
     ON CONFLICT ("topic_id") DO UPDATE SET
       "short_posts" = "post_topic_counts"."short_posts" + EXCLUDED."short_posts",
       "long_posts" = "post_topic_counts"."long_posts" + EXCLUDED."long_posts"`,
    [post.topicId, post.spaceId, long ? 0 : delta, long ? delta : 0],
  ];
}
