import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { KeysetSeek } from '../common/pagination/keyset';
import { defineStatements } from '../infrastructure/database/statements';
import { CommentSort } from './dto/comment-requests.dto';
import { Comment } from './entities/comment.entity';
import { CommentUpvote } from './entities/comment-upvote.entity';
import { affectedRows, ErasedRows } from '../common/erasure/erased-rows';

/** Every column of a comment, as `commentOfRow` maps them. */
export const COMMENT_COLUMNS =
  'id, post_id, space_id, parent_comment_id, author_did, body, attachment_ids, upvote_count, reply_count, ' +
  'published_at, activity_at, updated_at, deleted_at';

/**
 * The pages of one listing (`where` with its `fixed` parameters, sorted by `keys` in `direction`):
 * the first page, the page after a cursor and the page before one (read in the opposite order).
 * Composed once, when the statements are declared: each variant is fixed text
 * (docs/decisions/0140-statement-variants-composed-at-declaration.md).
 */
function pages(where: string, fixed: number, keys: string[], direction: 'ASC' | 'DESC') {
  const order = (dir: 'ASC' | 'DESC') => keys.map((key) => `${key} ${dir}`).join(', ');
  const reverse = direction === 'ASC' ? 'DESC' : 'ASC';
  const seek = (comparator: '<' | '>') =>
    ` AND (${keys.join(', ')}) ${comparator} (${keys.map((_, index) => `$${fixed + 1 + index}`).join(', ')})`;
  const limit = `$${fixed + keys.length + 1}`;
  const select = `SELECT ${COMMENT_COLUMNS} FROM comments WHERE ${where}`;
  return {
    first: `${select} ORDER BY ${order(direction)} LIMIT $${fixed + 1}`,
    after: `${select}${seek(direction === 'ASC' ? '>' : '<')} ORDER BY ${order(direction)} LIMIT ${limit}`,
    before: `${select}${seek(direction === 'ASC' ? '<' : '>')} ORDER BY ${order(reverse)} LIMIT ${limit}`,
  };
}

/** A listing's three sorts: `newest` and `oldest` by time then id, `top` by upvotes first. */
const sorts = (where: string, fixed: number, time: string) => ({
  newest: pages(where, fixed, [time, 'id'], 'DESC'),
  oldest: pages(where, fixed, [time, 'id'], 'ASC'),
  top: pages(where, fixed, ['upvote_count', time, 'id'], 'DESC'),
});

/** The comments module's fixed SQL (docs/decisions/0131-a-repository-per-module.md). */
export const COMMENTS_STATEMENTS = defineStatements('CommentsRepository', {
  /**
   * A page of an author's ($1) live comments for their export, oldest first on `idx_comments_author`
   * ($2 rows; `after`: $2, $3 the last (published_at, id), $4 rows;
   * docs/decisions/0210-personal-export-archive-layout.md).
   */
  exportPage: pages('author_did = $1 AND deleted_at IS NULL', 1, ['published_at', 'id'], 'ASC'),
  /**
   * A page of a space's ($1) live comments for its export, oldest first on `idx_comments_space`
   * (docs/decisions/0216-space-export-archive-layout.md).
   */
  exportPageOfSpace: pages('space_id = $1 AND deleted_at IS NULL', 1, ['published_at', 'id'], 'ASC'),
  /**
   * A page of a post's root comments ($1 post id) by `activity_at`, or of one root's replies
   * ($1 post id, $2 root id) by `published_at`; then the cursor's keyset values, then the count.
   */
  page: {
    roots: sorts('post_id = $1 AND parent_comment_id IS NULL', 1, 'activity_at'),
    replies: sorts('post_id = $1 AND parent_comment_id = $2', 2, 'published_at'),
  },
  /**
   * A new comment ($1…$13, COMMENT_COLUMNS in order), its defaulted columns returned: the text
   * TypeORM's insert sent, kept so the bench's twin runs this very statement.
   */
  insert:
    `INSERT INTO "comments"(${COMMENT_COLUMNS.split(', ')
      .map((column) => `"${column}"`)
      .join(', ')}) VALUES (${Array.from({ length: 13 }, (_, index) => `$${index + 1}`).join(', ')}) ` +
    'RETURNING "attachment_ids", "upvote_count", "reply_count"',
  /** A reply was added to the root ($1 root id, $2 the reply's time). */
  countReply:
    'UPDATE comments SET reply_count = reply_count + 1, activity_at = GREATEST(activity_at, $2) WHERE id = $1',
  /** A live reply of the root ($1) became a tombstone. */
  uncountReply: 'UPDATE comments SET reply_count = GREATEST(reply_count - 1, 0) WHERE id = $1',
  /** The comment's ($1) upvotes, one more or one fewer. */
  upvoteCount: {
    up: 'UPDATE comments SET upvote_count = upvote_count + 1 WHERE id = $1',
    down: 'UPDATE comments SET upvote_count = GREATEST(upvote_count - 1, 0) WHERE id = $1',
  },
  /** An upvote ($1 comment, $2 voter, $3 time) unless it exists: returns a row when it was new. */
  insertUpvote:
    'INSERT INTO comment_upvotes (comment_id, voter_did, created_at) VALUES ($1, $2, $3) ' +
    'ON CONFLICT DO NOTHING RETURNING comment_id',
  /** Which of the comments ($2) the voter ($1) upvoted. */
  /** The live comments among $1 (other modules' batch reads: CommentItemsService). */
  liveByIds: `SELECT ${COMMENT_COLUMNS} FROM comments WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
  upvotedBy: 'SELECT comment_id FROM comment_upvotes WHERE voter_did = $1 AND comment_id = ANY($2)',
  /**
   * Erasure of an author ($1) at $2 (docs/decisions/0196-what-an-erasure-removes-and-keeps.md):
   * their live comments become tombstones (body and attachments gone), returned for the counts…
   */
  tombstoneAllOf:
    "UPDATE comments SET body = NULL, attachment_ids = '[]', deleted_at = $2, updated_at = $2 " +
    'WHERE author_did = $1 AND deleted_at IS NULL RETURNING id, post_id, space_id, parent_comment_id',
  /** …and the text of their tombstones from before (a tombstone keeps none). */
  clearTombstonesOf:
    "UPDATE comments SET body = NULL, attachment_ids = '[]' WHERE author_did = $1 AND deleted_at IS NOT NULL " +
    "AND (body IS NOT NULL OR attachment_ids <> '[]')",
  /** Their upvotes ($1) gone, each comment's counter lowered with it. */
  eraseUpvotes:
    'WITH gone AS (DELETE FROM comment_upvotes WHERE voter_did = $1 RETURNING comment_id) ' +
    'UPDATE comments SET upvote_count = GREATEST(upvote_count - 1, 0) FROM gone WHERE comments.id = gone.comment_id',
});

/** A row of COMMENT_COLUMNS as node-postgres gives it. */
export interface CommentRow {
  id: string;
  post_id: string;
  space_id: string;
  parent_comment_id: string | null;
  author_did: string;
  body: string | null;
  attachment_ids: string[];
  upvote_count: number;
  reply_count: number;
  published_at: Date;
  activity_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

/**
 * A comment of its row, mapped explicitly: TypeORM's entity hydration showed in a thread page's
 * profile (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md).
 */
export function commentOfRow(row: CommentRow): Comment {
  const comment = new Comment();
  comment.id = row.id;
  comment.postId = row.post_id;
  comment.spaceId = row.space_id;
  comment.parentCommentId = row.parent_comment_id;
  comment.authorDid = row.author_did;
  comment.body = row.body;
  comment.attachmentIds = row.attachment_ids;
  comment.upvoteCount = row.upvote_count;
  comment.replyCount = row.reply_count;
  comment.publishedAt = row.published_at;
  comment.activityAt = row.activity_at;
  comment.updatedAt = row.updated_at;
  comment.deletedAt = row.deleted_at;
  return comment;
}

/** Which comments a page lists: a post's roots, or the replies of one of its roots. */
export type CommentThread = { postId: string; rootId: null } | { postId: string; rootId: string };

/** Every statement on `comments` and `comment_upvotes`. */
@Injectable()
export class CommentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A page of `authorDid`'s live comments, oldest first, after the (published_at, id) `after`. */
  async exportPage(
    authorDid: string,
    after: [string, string] | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Comment[]> {
    const { exportPage } = COMMENTS_STATEMENTS;
    const rows = after
      ? await runner.query<CommentRow[]>(exportPage.after, [authorDid, after[0], after[1], limit])
      : await runner.query<CommentRow[]>(exportPage.first, [authorDid, limit]);
    return rows.map(commentOfRow);
  }

  /** A page of the space's live comments, oldest first, after the (published_at, id) `after`. */
  async exportPageOfSpace(
    spaceId: string,
    after: [string, string] | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Comment[]> {
    const { exportPageOfSpace } = COMMENTS_STATEMENTS;
    const rows = after
      ? await runner.query<CommentRow[]>(exportPageOfSpace.after, [spaceId, after[0], after[1], limit])
      : await runner.query<CommentRow[]>(exportPageOfSpace.first, [spaceId, limit]);
    return rows.map(commentOfRow);
  }

  /** A keyset page of the thread in `sort` order from `seek` (`take` rows, reversed when backward). */
  async page(thread: CommentThread, sort: CommentSort, seek: KeysetSeek): Promise<Comment[]> {
    const variants =
      thread.rootId === null ? COMMENTS_STATEMENTS.page.roots : COMMENTS_STATEMENTS.page.replies;
    const fixed = thread.rootId === null ? [thread.postId] : [thread.postId, thread.rootId];
    const statement = !seek.values
      ? variants[sort].first
      : seek.backward
        ? variants[sort].before
        : variants[sort].after;
    const rows = await this.dataSource.query<CommentRow[]>(statement, [
      ...fixed,
      ...(seek.values ?? []),
      seek.take,
    ]);
    return rows.map(commentOfRow);
  }

  /** The live comments among `ids`, in no particular order. */
  async liveByIds(ids: string[]): Promise<Comment[]> {
    const rows = await this.dataSource.query<CommentRow[]>(COMMENTS_STATEMENTS.liveByIds, [ids]);
    return rows.map(commentOfRow);
  }

  /** A live comment on the post, else null. */
  liveOfPost(id: string, postId: string): Promise<Comment | null> {
    return this.dataSource.getRepository(Comment).findOneBy({ id, postId, deletedAt: IsNull() });
  }

  /** A live comment of the space, else null. */
  liveOfSpace(id: string, spaceId: string): Promise<Comment | null> {
    return this.dataSource.getRepository(Comment).findOneBy({ id, spaceId, deletedAt: IsNull() });
  }

  /** Who wrote the comment, when it is live. */
  async liveAuthorOf(id: string): Promise<string | null> {
    const comment = await this.dataSource.getRepository(Comment).findOne({
      where: { id, deletedAt: IsNull() },
      select: { id: true, authorDid: true },
    });
    return comment?.authorDid ?? null;
  }

  /** Inserts a new comment; its defaulted columns come back onto it, as TypeORM's insert did. */
  async insert(comment: Comment, runner: EntityManager = this.dataSource.manager): Promise<void> {
    const [returned] = await runner.query<
      Pick<CommentRow, 'attachment_ids' | 'upvote_count' | 'reply_count'>[]
    >(COMMENTS_STATEMENTS.insert, [
      comment.id,
      comment.postId,
      comment.spaceId,
      comment.parentCommentId,
      comment.authorDid,
      comment.body,
      JSON.stringify(comment.attachmentIds),
      comment.upvoteCount,
      comment.replyCount,
      comment.publishedAt,
      comment.activityAt,
      comment.updatedAt,
      comment.deletedAt,
    ]);
    comment.attachmentIds = returned.attachment_ids;
    comment.upvoteCount = returned.upvote_count;
    comment.replyCount = returned.reply_count;
  }

  /** Counts a new reply on its root and moves the root's activity to the reply's time. */
  async countReply(rootId: string, at: Date, runner: EntityManager = this.dataSource.manager): Promise<void> {
    await runner.query(COMMENTS_STATEMENTS.countReply, [rootId, at]);
  }

  async uncountReply(rootId: string, runner: EntityManager = this.dataSource.manager): Promise<void> {
    await runner.query(COMMENTS_STATEMENTS.uncountReply, [rootId]);
  }

  async updateContent(comment: Pick<Comment, 'id' | 'body' | 'attachmentIds' | 'updatedAt'>): Promise<void> {
    await this.dataSource
      .getRepository(Comment)
      .update(
        { id: comment.id },
        { body: comment.body, attachmentIds: comment.attachmentIds, updatedAt: comment.updatedAt },
      );
  }

  /** Every live comment of the author made a tombstone, the others' text cleared; their upvotes gone. */
  async eraseAllOf(
    authorDid: string,
    at: Date,
    runner: EntityManager,
  ): Promise<{
    tombstoned: { id: string; post_id: string; space_id: string; parent_comment_id: string | null }[];
    erased: ErasedRows;
  }> {
    const [tombstoned] = await runner.query<
      [{ id: string; post_id: string; space_id: string; parent_comment_id: string | null }[], number]
    >(COMMENTS_STATEMENTS.tombstoneAllOf, [authorDid, at]);
    const cleared = affectedRows(await runner.query(COMMENTS_STATEMENTS.clearTombstonesOf, [authorDid]));
    const upvotes = affectedRows(await runner.query(COMMENTS_STATEMENTS.eraseUpvotes, [authorDid]));
    return { tombstoned, erased: { comments: tombstoned.length + cleared, comment_upvotes: upvotes } };
  }

  /** Makes a live comment a tombstone; false when it was one already. */
  async tombstone(id: string, at: Date, runner: EntityManager = this.dataSource.manager): Promise<boolean> {
    const result = await runner.update(
      Comment,
      { id, deletedAt: IsNull() },
      { body: null, attachmentIds: [], deletedAt: at, updatedAt: at },
    );
    return Boolean(result.affected);
  }

  /** Whether this upvote was new (`ON CONFLICT DO NOTHING`: a repeat changes nothing). */
  async insertUpvote(
    commentId: string,
    voterDid: string,
    at: Date,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const rows = await runner.query<unknown[]>(COMMENTS_STATEMENTS.insertUpvote, [commentId, voterDid, at]);
    return rows.length > 0;
  }

  /** Whether there was an upvote to withdraw. */
  async deleteUpvote(
    commentId: string,
    voterDid: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const result = await runner.delete(CommentUpvote, { commentId, voterDid });
    return (result.affected ?? 0) > 0;
  }

  /** One more (`up`) or one fewer upvote on the comment's count. */
  async moveUpvoteCount(
    commentId: string,
    up: boolean,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.query(up ? COMMENTS_STATEMENTS.upvoteCount.up : COMMENTS_STATEMENTS.upvoteCount.down, [
      commentId,
    ]);
  }

  async upvoteCountOf(commentId: string, runner: EntityManager = this.dataSource.manager): Promise<number> {
    const row = await runner.findOneByOrFail(Comment, { id: commentId });
    return row.upvoteCount;
  }

  /** Which of the comments the voter upvoted. */
  async upvotedBy(
    voterDid: string,
    commentIds: string[],
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Set<string>> {
    const rows = await runner.query<{ comment_id: string }[]>(COMMENTS_STATEMENTS.upvotedBy, [
      voterDid,
      commentIds,
    ]);
    return new Set(rows.map((row) => row.comment_id));
  }
}
