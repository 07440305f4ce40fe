import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';

/** Where a live post counts: its space, its topic and its format (long-post when it has a title). */
export interface CountedPost {
  spaceId: string;
  topicId: string;
  title: string | null;
}

/**
 * Counts a post in or out of its topic ($1 topic, $2 space, $3 short posts, $4 long posts, each
 * +1, -1 or 0), parameters numbered from `first`. One statement, so concurrent writes to a topic
 * queue on its row and never lose an update; also a WITH item of the post insert.
 */
export function countChangeStatement(first: number): string {
  const $ = (index: number) => `$${first + index}`;
  return (
    `INSERT INTO "post_topic_counts" ("topic_id", "space_id", "short_posts", "long_posts") ` +
    `VALUES (${$(0)}, ${$(1)}, ${$(2)}, ${$(3)}) ON CONFLICT ("topic_id") DO UPDATE SET ` +
    `"short_posts" = "post_topic_counts"."short_posts" + EXCLUDED."short_posts", ` +
    `"long_posts" = "post_topic_counts"."long_posts" + EXCLUDED."long_posts"`
  );
}

/** The sum of the per-topic counters of the topics $1, counting `counted`. */
const SUM_OF_TOPICS = (counted: string) =>
  `SELECT COALESCE(sum(${counted}), 0)::int AS n FROM "post_topic_counts" WHERE "topic_id" = ANY($1::uuid[])`;

/**
 * Live posts of the topics $1 published after $2 and before $3 (each NULL: unbounded, as
 * docs/decisions/0135-optional-filters-as-null-parameters.md has it), at most $4
 * entries of `idx_posts_topic_recent` read in its order (so the planner walks the index), whatever
 * the range's size; `longness` says per post whether it has a title.
 */
const IN_RANGE = (longness: string) =>
  `SELECT count(*)::int AS "read", count(*) FILTER (WHERE "long")::int AS "long" ` +
  `FROM (SELECT ${longness} AS "long" FROM "posts" WHERE "topic_id" = ANY($1::uuid[]) AND "deleted_at" IS NULL ` +
  `AND ($2::timestamptz IS NULL OR "published_at" > $2) AND ($3::timestamptz IS NULL OR "published_at" < $3) ` +
  `ORDER BY "topic_id", "published_at" LIMIT $4) AS "bounded"`;

/** The per-topic post counters (docs/decisions/0131-a-repository-per-module.md). */
export const POST_COUNTS_STATEMENTS = defineStatements('PostCountsRepository', {
  countChange: countChangeStatement(1),
  inTopics: {
    all: SUM_OF_TOPICS('"short_posts" + "long_posts"'),
    short: SUM_OF_TOPICS('"short_posts"'),
    long: SUM_OF_TOPICS('"long_posts"'),
  },
  inRange: {
    /** Without a format filter the title is not needed, and the index alone answers. */
    anyFormat: IN_RANGE('false'),
    byFormat: IN_RANGE('"title" IS NOT NULL'),
  },
  /** Live posts of the space $1's live topics whose access is not `public`. */
  privateInSpace:
    'SELECT COALESCE(sum(c."short_posts" + c."long_posts"), 0)::int AS n FROM "post_topic_counts" c ' +
    'JOIN "live_space_topics" t ON t."id" = c."topic_id" AND t."space_id" = $1 ' +
    `WHERE c."space_id" = $1 AND t."access_kind" <> 'public'`,
});

/** The parameters of a count change: `post` counted in (+1) or out (-1) of its topic. */
export function countChangeParameters(post: CountedPost, delta: 1 | -1): unknown[] {
  const long = post.title !== null;
  return [post.topicId, post.spaceId, long ? 0 : delta, long ? delta : 0];
}

/**
 * The live posts per topic and format (`post_topic_counts`), kept inside the transaction of every
 * post write; reads sum the rows of a handful of topics, never the posts.
 */
@Injectable()
export class PostCountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async add(
    post: CountedPost,
    delta: 1 | -1,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.query(POST_COUNTS_STATEMENTS.countChange, countChangeParameters(post, delta));
  }

  async inTopics(topicIds: string[], format: 'all' | 'short' | 'long'): Promise<number> {
    const [row] = await this.dataSource.query<{ n: number }[]>(POST_COUNTS_STATEMENTS.inTopics[format], [
      topicIds,
    ]);
    return row.n;
  }

  async inRange(
    topicIds: string[],
    range: { after: Date | null; before: Date | null; byFormat: boolean },
    limit: number,
  ): Promise<{ read: number; long: number }> {
    const statement = range.byFormat
      ? POST_COUNTS_STATEMENTS.inRange.byFormat
      : POST_COUNTS_STATEMENTS.inRange.anyFormat;
    const [row] = await this.dataSource.query<{ read: number; long: number }[]>(statement, [
      topicIds,
      range.after,
      range.before,
      limit,
    ]);
    return row;
  }

  async privateInSpace(spaceId: string): Promise<number> {
    const [row] = await this.dataSource.query<{ n: number }[]>(POST_COUNTS_STATEMENTS.privateInSpace, [
      spaceId,
    ]);
    return row.n;
  }
}
