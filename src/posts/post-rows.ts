import { Post } from './entities/post.entity';

/**
 * A whole live post of a space ($1 post id, $2 space id) on fixed SQL with explicit row mapping:
 * TypeORM's findOne (query building and entity hydration) showed in its profile
 * (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md).
 */
export const LIVE_POST_IN_SPACE =
  'SELECT id, space_id, topic_id, author_did, title, body, excerpt, display_title, card_text_at, slug, attachment_ids, ' +
  'upvote_count, comment_count, is_pinned, published_at, updated_at, deleted_at, content_id, head_cid, document_cid ' +
  'FROM posts WHERE id = $1 AND space_id = $2 AND deleted_at IS NULL';

export interface PostRow {
  id: string;
  space_id: string;
  topic_id: string;
  author_did: string;
  title: string | null;
  body: string;
  excerpt: string | null;
  display_title: string | null;
  card_text_at: Date | null;
  slug: string;
  attachment_ids: string[];
  upvote_count: number;
  comment_count: number;
  is_pinned: boolean;
  published_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  content_id: string | null;
  head_cid: string | null;
  document_cid: string | null;
}

export function postOfRow(row: PostRow): Post {
  const post = new Post();
  post.id = row.id;
  post.spaceId = row.space_id;
  post.topicId = row.topic_id;
  post.authorDid = row.author_did;
  post.title = row.title;
  post.body = row.body;
  post.excerpt = row.excerpt;
  post.displayTitle = row.display_title;
  post.cardTextAt = row.card_text_at;
  post.slug = row.slug;
  post.attachmentIds = row.attachment_ids;
  post.upvoteCount = row.upvote_count;
  post.commentCount = row.comment_count;
  post.isPinned = row.is_pinned;
  post.publishedAt = row.published_at;
  post.updatedAt = row.updated_at;
  post.deletedAt = row.deleted_at;
  post.contentId = row.content_id;
  post.headCid = row.head_cid;
  post.documentCid = row.document_cid;
  return post;
}
