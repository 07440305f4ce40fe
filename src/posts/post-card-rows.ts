import { SelectQueryBuilder } from 'typeorm';
import { Post } from './entities/post.entity';

/** What a listing reads of a post: everything a card shows, never the body, attachments or chain bookkeeping. */
const CARD_COLUMNS: (keyof Post)[] = [
  'id',
  'spaceId',
  'topicId',
  'authorDid',
  'title',
  'excerpt',
  'displayTitle',
  'cardTextAt',
  'slug',
  'upvoteCount',
  'commentCount',
  'isPinned',
  'publishedAt',
  'updatedAt',
  'contentId',
  'headCid',
];

/** The body, only of a row whose stored card text is not current (written by an older release). */
const STALE_BODY = `CASE WHEN "post"."card_text_at" IS NOT DISTINCT FROM "post"."updated_at" THEN NULL ELSE "post"."body" END`;

/** Posts aliased `post`, selecting the card columns (read the rows with `readCardRows`). */
export function selectCardColumns(builder: SelectQueryBuilder<Post>): SelectQueryBuilder<Post> {
  return builder.select(CARD_COLUMNS.map((column) => `post.${column}`)).addSelect(STALE_BODY, 'stale_body');
}

/** A card query's raw row: TypeORM names each column `post_<column>`. */
interface CardRow {
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

function cardOfRow(row: CardRow): Post {
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
