import { SelectQueryBuilder } from 'typeorm';
import { Comment } from './entities/comment.entity';

/** A comment query's raw row (alias `c`): TypeORM names each column `c_<column>`. */
interface CommentRow {
  c_id: string;
  c_post_id: string;
  c_space_id: string;
  c_parent_comment_id: string | null;
  c_author_did: string;
  c_body: string | null;
  c_attachment_ids: string[];
  c_upvote_count: number;
  c_reply_count: number;
  c_published_at: Date;
  c_activity_at: Date;
  c_updated_at: Date;
  c_deleted_at: Date | null;
}

/**
 * The rows of a comment query aliased `c`, mapped explicitly: TypeORM's entity hydration showed
 * in a thread page's profile (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md).
 */
export async function readCommentRows(query: SelectQueryBuilder<Comment>): Promise<Comment[]> {
  const rows = await query.getRawMany<CommentRow>();
  return rows.map(commentOfRow);
}

function commentOfRow(row: CommentRow): Comment {
  const comment = new Comment();
  comment.id = row.c_id;
  comment.postId = row.c_post_id;
  comment.spaceId = row.c_space_id;
  comment.parentCommentId = row.c_parent_comment_id;
  comment.authorDid = row.c_author_did;
  comment.body = row.c_body;
  comment.attachmentIds = row.c_attachment_ids;
  comment.upvoteCount = row.c_upvote_count;
  comment.replyCount = row.c_reply_count;
  comment.publishedAt = row.c_published_at;
  comment.activityAt = row.c_activity_at;
  comment.updatedAt = row.c_updated_at;
  comment.deletedAt = row.c_deleted_at;
  return comment;
}
