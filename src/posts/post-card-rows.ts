import { SelectQueryBuilder } from 'typeorm';
import { KeysetSeek, readOrder, seekComparator } from '../common/pagination/keyset';
import { Post } from './entities/post.entity';

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

/** The body, only of a row whose stored card text is not current (written by an older release). */
const STALE_BODY = `CASE WHEN "post"."card_text_at" IS NOT DISTINCT FROM "post"."updated_at" THEN NULL ELSE "post"."body" END`;

/** Each selected expression with its alias: the card columns, then the stale body. */
const CARD_SELECTIONS: [expression: string, alias: string][] = [
  ...CARD_COLUMNS.map((column): [string, string] => [`"post"."${column}"`, `post_${column}`]),
  [STALE_BODY, 'stale_body'],
];

/** Posts aliased `post`, selecting the card columns (read the rows with `readCardRows`). */
export function selectCardColumns(builder: SelectQueryBuilder<Post>): SelectQueryBuilder<Post> {
  const [[expression, alias], ...others] = CARD_SELECTIONS;
  return others.reduce((query, [other, as]) => query.addSelect(other, as), builder.select(expression, alias));
}

/** A card query's raw row: TypeORM names each column `post_<column>`. */
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
 * The rows of a card query, mapped explicitly (TypeORM's entity hydration was a tenth of a
 * 100-card page's CPU); a row with stale card text carries its body (see `cardTextOf`).
 */
export async function readCardRows(query: SelectQueryBuilder<Post>): Promise<Post[]> {
  const rows = await query.getRawMany<CardRow>();
  return rows.map(cardOfRow);
}

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

/** The card columns as `selectCardColumns` names them (`post_<column>`), on fixed SQL. */
const CARD_SELECT = `SELECT ${CARD_SELECTIONS.map(([expression, alias]) => `${expression} AS "${alias}"`).join(', ')} FROM "posts" "post"`;

/** The listing's filters (PostListingQuery, parsed). */
export interface SpacePostFilters {
  format?: 'long-post' | 'short-post';
  publishedAfter?: Date;
  publishedBefore?: Date;
}

/**
 * One page of a space's posts on fixed SQL (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md): the card columns of the live posts of
 * `topicIds` (none: an empty page), filtered, past the keyset `seek` on (`published_at`, `id`) in
 * `direction` (the opposite when read backward), `take` rows. Read the rows with `cardOfRow`.
 */
export function spacePostsPageStatement(
  spaceId: string,
  topicIds: string[],
  filters: SpacePostFilters,
  seek: KeysetSeek,
  direction: 'ASC' | 'DESC',
): { sql: string; parameters: unknown[] } {
  const parameters: unknown[] = [];
  const bind = (value: unknown) => `$${parameters.push(value)}`;
  const where = [
    `"post"."space_id" = ${bind(spaceId)}`,
    `"post"."topic_id" = ANY(${bind(topicIds)}::uuid[])`,
  ];
  if (filters.format === 'long-post') where.push('"post"."title" IS NOT NULL');
  if (filters.format === 'short-post') where.push('"post"."title" IS NULL');
  if (filters.publishedAfter) where.push(`"post"."published_at" > ${bind(filters.publishedAfter)}`);
  if (filters.publishedBefore) where.push(`"post"."published_at" < ${bind(filters.publishedBefore)}`);
  where.push('"post"."deleted_at" IS NULL');
  const order = readOrder(direction, seek.backward);
  if (seek.values) {
    const [publishedAt, id] = seek.values;
    where.push(
      `("post"."published_at", "post"."id") ${seekComparator(order)} (${bind(publishedAt)}, ${bind(id)})`,
    );
  }
  return {
    sql: `${CARD_SELECT} WHERE ${where.join(' AND ')} ORDER BY "post"."published_at" ${order}, "post"."id" ${order} LIMIT ${bind(seek.take)}`,
    parameters,
  };
}
