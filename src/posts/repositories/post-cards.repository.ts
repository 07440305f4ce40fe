import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';
import { KeysetSeek, readOrder } from '../../common/pagination/keyset';
import { Post } from '../entities/post.entity';
import { readerReadsTopic } from './post-readers.repository';

/**
 * What a listing reads of a post, by column name: everything a card shows, never the body,
 * attachments or chain bookkeeping. Each is read as `post_<column>` (a CardRow).
 */
const CARD_COLUMNS = [
  'id',
  'space_id',
  'topic_id',
  'author_did',
  'title',
  'excerpt',
  'display_title',
  'card_text_at',
  'slug',
  'upvote_count',
  'comment_count',
  'is_pinned',
  'published_at',
  'updated_at',
  'content_id',
  'head_cid',
] as const;

/**
 * The card columns of posts aliased `post`, then the body only of a row whose stored card text is
 * not current (written by an older release).
 */
const CARD_SELECTION = [
  ...CARD_COLUMNS.map((column) => `"post"."${column}" AS "post_${column}"`),
  `CASE WHEN "post"."card_text_at" IS NOT DISTINCT FROM "post"."updated_at" THEN NULL ELSE "post"."body" END AS "stale_body"`,
].join(', ');

const CARD_SELECT = `SELECT ${CARD_SELECTION} FROM "posts" "post"`;

/**
 * One page of a space's posts ($1 space, $2 its topics this view reads; filters, each NULL when
 * not asked (docs/decisions/0135-optional-filters-as-null-parameters.md): $3 long posts (true) or
 * short ones (false), $4 published after, $5 published before; $6 rows read) in `order` by
 * (`published_at`, `id`), past the keyset ($7, $8) when `seeking`.
 */
const SPACE_PAGE = (order: 'ASC' | 'DESC', seeking: boolean) =>
  `${CARD_SELECT} WHERE "post"."space_id" = $1 AND "post"."topic_id" = ANY($2::uuid[]) ` +
  `AND ($3::boolean IS NULL OR ("post"."title" IS NOT NULL) = $3) ` +
  `AND ($4::timestamptz IS NULL OR "post"."published_at" > $4) ` +
  `AND ($5::timestamptz IS NULL OR "post"."published_at" < $5) AND "post"."deleted_at" IS NULL` +
  (seeking ? ` AND ("post"."published_at", "post"."id") ${order === 'ASC' ? '>' : '<'} ($7, $8)` : '') +
  ` ORDER BY "post"."published_at" ${order}, "post"."id" ${order} LIMIT $6`;

/**
 * A feed page ($1 the topics read, $2 rows read) in `order` by (published_at, id), past the keyset
 * ($3, $4) when `seeking`. For `topic_id IN (…)` PostgreSQL cannot merge one index scan per topic:
 * it sorted every post of every topic instead
 * (docs/decisions/0083-the-feeds-page-query-is-bounded-per-topic.md). So it reads per topic,
 * index-only from idx_posts_topic_recent, at most $2 keys past the cursor, and keeps the $2 newest
 * of them: a page then costs the same whatever the size of the spaces.
 */
const FEED_PAGE = (order: 'ASC' | 'DESC', seeking: boolean) => {
  const comparator = order === 'ASC' ? '>' : '<';
  return (
    `${CARD_SELECT} WHERE "post"."id" IN (SELECT picked.id FROM unnest($1::uuid[]) AS topic(id) ` +
    'CROSS JOIN LATERAL (SELECT recent.id, recent.published_at FROM posts recent ' +
    'WHERE recent.topic_id = topic.id AND recent.deleted_at IS NULL' +
    (seeking ? ` AND (recent.published_at, recent.id) ${comparator} ($3::timestamptz, $4::uuid)` : '') +
    ` ORDER BY recent.published_at ${order}, recent.id ${order} LIMIT $2) picked ` +
    `ORDER BY picked.published_at ${order}, picked.id ${order} LIMIT $2) AND "post"."deleted_at" IS NULL` +
    (seeking ? ` AND ("post"."published_at", "post"."id") ${comparator} ($3, $4)` : '') +
    ` ORDER BY "post"."published_at" ${order}, "post"."id" ${order} LIMIT $2`
  );
};

/** The card pages of the posts module (docs/decisions/0131-a-repository-per-module.md). */
export const POST_CARDS_STATEMENTS = defineStatements('PostCardsRepository', {
  spacePage: {
    newestFirst: SPACE_PAGE('DESC', false),
    newestAfter: SPACE_PAGE('DESC', true),
    oldestFirst: SPACE_PAGE('ASC', false),
    oldestAfter: SPACE_PAGE('ASC', true),
  },
  feedPage: {
    first: FEED_PAGE('DESC', false),
    after: FEED_PAGE('DESC', true),
    /** A `before` cursor: read backward (oldest first), the page reversed after. */
    before: FEED_PAGE('ASC', true),
  },
  /**
   * The cards of the live posts $1 that the reader $2 (NULL: nobody signed in) reads now
   * (`readerReadsTopic`), with their space's domain, whether $2 is an active member there and
   * whether $2 upvoted each, in one statement.
   */
  forReader:
    `SELECT ${CARD_SELECTION}, "s"."domain" AS "space_domain", ` +
    `COALESCE(st.status = 'active', false) AS "member", ` +
    'EXISTS (SELECT 1 FROM post_upvotes u WHERE u.post_id = "post"."id" AND u.voter_did = $2) AS "upvoted" ' +
    'FROM "posts" "post" JOIN live_spaces s ON s.id = "post"."space_id" ' +
    'JOIN live_space_topics t ON t.id = "post"."topic_id" ' +
    'LEFT JOIN space_member_standings st ON st.space_id = "post"."space_id" AND st.member_did = $2 ' +
    `WHERE "post"."id" = ANY($1::uuid[]) AND "post"."deleted_at" IS NULL AND ${readerReadsTopic('t', 's', 'st', '$2')}`,
});

/** A card query's raw row: each column named `post_<column>`. */
export interface CardRow {
  post_id: string;
  post_space_id: string;
  post_topic_id: string;
  post_author_did: string;
  post_title: string | null;
  post_excerpt: string | null;
  post_display_title: string | null;
  post_card_text_at: Date | null;
  post_slug: string;
  post_upvote_count: number;
  post_comment_count: number;
  post_is_pinned: boolean;
  post_published_at: Date;
  post_updated_at: Date;
  post_content_id: string | null;
  post_head_cid: string | null;
  stale_body: string | null;
}

/**
 * A card row mapped explicitly (TypeORM's entity hydration was a tenth of a 100-card page's CPU,
 * docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md); a row with stale card
 * text carries its body (see `cardTextOf`).
 */
export function cardOfRow(row: CardRow): Post {
  const post = new Post();
  post.id = row.post_id;
  post.spaceId = row.post_space_id;
  post.topicId = row.post_topic_id;
  post.authorDid = row.post_author_did;
  post.title = row.post_title;
  post.excerpt = row.post_excerpt;
  post.displayTitle = row.post_display_title;
  post.cardTextAt = row.post_card_text_at;
  post.slug = row.post_slug;
  post.upvoteCount = row.post_upvote_count;
  post.commentCount = row.post_comment_count;
  post.isPinned = row.post_is_pinned;
  post.publishedAt = row.post_published_at;
  post.updatedAt = row.post_updated_at;
  post.contentId = row.post_content_id;
  post.headCid = row.post_head_cid;
  if (row.stale_body !== null) post.body = row.stale_body;
  return post;
}

/** The listing's filters (PostListingQuery, parsed). */
export interface SpacePostFilters {
  format?: 'long-post' | 'short-post';
  publishedAfter?: Date;
  publishedBefore?: Date;
}

/**
 * The statement and parameters of one page of a space's posts: the card columns of the live posts
 * of `topicIds` (none: an empty page), filtered, past the keyset `seek` in `direction` (the
 * opposite when read backward), `seek.take` rows. Read the rows with `cardOfRow`.
 */
export function spacePostsPageStatement(
  spaceId: string,
  topicIds: string[],
  filters: SpacePostFilters,
  seek: KeysetSeek,
  direction: 'ASC' | 'DESC',
): { sql: string; parameters: unknown[] } {
  const order = readOrder(direction, seek.backward);
  const { spacePage } = POST_CARDS_STATEMENTS;
  const sql = seek.values
    ? order === 'DESC'
      ? spacePage.newestAfter
      : spacePage.oldestAfter
    : order === 'DESC'
      ? spacePage.newestFirst
      : spacePage.oldestFirst;
  const long = filters.format === undefined ? null : filters.format === 'long-post';
  const parameters: unknown[] = [
    spaceId,
    topicIds,
    long,
    filters.publishedAfter ?? null,
    filters.publishedBefore ?? null,
    seek.take,
    ...(seek.values ?? []),
  ];
  return { sql, parameters };
}

/** A card of `forReader`: the post, its space's domain, the reader's standing and upvote. */
export interface ReaderCard {
  post: Post;
  spaceDomain: string;
  /** Whether the reader is an active member of the post's space (the member projection). */
  member: boolean;
  upvoted: boolean;
}

/** The card pages and card reads of posts. */
@Injectable()
export class PostCardsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async spacePage(
    spaceId: string,
    topicIds: string[],
    filters: SpacePostFilters,
    seek: KeysetSeek,
    direction: 'ASC' | 'DESC',
  ): Promise<Post[]> {
    const { sql, parameters } = spacePostsPageStatement(spaceId, topicIds, filters, seek, direction);
    const rows = await this.dataSource.query<CardRow[]>(sql, parameters);
    return rows.map(cardOfRow);
  }

  /** A feed page over `topicIds`, newest first (read backward for a `before` cursor). */
  async feedPage(topicIds: string[], seek: KeysetSeek): Promise<Post[]> {
    const { feedPage } = POST_CARDS_STATEMENTS;
    const sql = !seek.values ? feedPage.first : seek.backward ? feedPage.before : feedPage.after;
    const rows = await this.dataSource.query<CardRow[]>(sql, [topicIds, seek.take, ...(seek.values ?? [])]);
    return rows.map(cardOfRow);
  }

  async forReader(readerDid: string | null, postIds: string[]): Promise<ReaderCard[]> {
    const rows = await this.dataSource.query<
      (CardRow & { space_domain: string; member: boolean; upvoted: boolean })[]
    >(POST_CARDS_STATEMENTS.forReader, [postIds, readerDid]);
    return rows.map((row) => ({
      post: cardOfRow(row),
      spaceDomain: row.space_domain,
      member: row.member,
      upvoted: row.upvoted,
    }));
  }
}
