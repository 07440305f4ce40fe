import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';
import { Post } from '../entities/post.entity';
import { countChangeParameters, countChangeStatement } from './post-counts.repository';
import { affectedRows, ErasedRows } from '../../common/erasure/erased-rows';

/** Every column of a post, in the entity's order (the insert's $1…$20). */
const POST_COLUMNS =
  'id, space_id, topic_id, author_did, title, body, excerpt, display_title, card_text_at, slug, attachment_ids, ' +
  'upvote_count, comment_count, is_pinned, published_at, updated_at, deleted_at, content_id, head_cid, document_cid';

/** What a post's export holds (docs/decisions/0210-personal-export-archive-layout.md). */
const EXPORTED_POST_COLUMNS =
  'id, space_id, topic_id, title, body, slug, attachment_ids, upvote_count, comment_count, is_pinned, ' +
  'published_at, updated_at, content_id, head_cid';

/** A row of `exportPage`. */
export interface ExportedPostRow {
  id: string;
  space_id: string;
  topic_id: string;
  title: string | null;
  body: string;
  slug: string;
  attachment_ids: string[];
  upvote_count: number;
  comment_count: number;
  is_pinned: boolean;
  published_at: Date;
  updated_at: Date;
  content_id: string | null;
  head_cid: string | null;
}

/** The chain position columns of a post, by property. */
export type ChainColumns = Pick<Post, 'contentId' | 'headCid' | 'documentCid'>;

/**
 * The posts module's statements on posts and upvotes (docs/decisions/0131-a-repository-per-module.md);
 * card pages are PostCardsRepository's, counters PostCountsRepository's.
 */
export const POSTS_STATEMENTS = defineStatements('PostsRepository', {
  /**
   * A whole live post of a space ($1 post id, $2 space id) on fixed SQL with explicit row mapping
   * (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md).
   */
  livePostInSpace: `SELECT ${POST_COLUMNS} FROM posts WHERE id = $1 AND space_id = $2 AND deleted_at IS NULL`,
  /** What the checks on a post need of it ($1 post id, $2 space id): never its body. */
  postHeadInSpace: `SELECT id, space_id, topic_id, author_did FROM posts
  WHERE id = $1 AND space_id = $2 AND deleted_at IS NULL`,
  /**
   * A new post ($1…$20, the entity's columns), its count in its topic ($21…$24) and its author's
   * record ($25, the users module's view `author_records`), in one statement.
   */
  insert:
    `WITH "written" AS (INSERT INTO "posts"(${POST_COLUMNS.split(', ')
      .map((column) => `"${column}"`)
      .join(', ')}) VALUES (${Array.from({ length: 20 }, (_, index) => `$${index + 1}`).join(', ')})), ` +
    `"counted" AS (${countChangeStatement(21)}) ` +
    'SELECT "handle", "display_name" AS "displayName", "avatar_id" AS "avatarId" FROM "author_records" WHERE "did" = $25',
  /** A comment added to ($1) or removed from a post. */
  commentCount: {
    added: 'UPDATE posts SET comment_count = comment_count + 1 WHERE id = $1',
    removed: 'UPDATE posts SET comment_count = GREATEST(comment_count - 1, 0) WHERE id = $1',
  },
  /** Adds the upvote ($1 post, $2 voter, $3 time) and bumps the counter only when the row is new. */
  upvote: `
WITH inserted AS (
  INSERT INTO post_upvotes (post_id, voter_did, created_at) VALUES ($1, $2, $3)
  ON CONFLICT DO NOTHING RETURNING post_id
), bumped AS (
  UPDATE posts SET upvote_count = upvote_count + 1
  WHERE id = $1 AND EXISTS (SELECT 1 FROM inserted) RETURNING upvote_count
)
SELECT COALESCE((SELECT upvote_count FROM bumped), (SELECT upvote_count FROM posts WHERE id = $1)) AS count,
       EXISTS (SELECT 1 FROM inserted) AS changed`,
  /** Removes the upvote ($1 post, $2 voter) and lowers the counter (never below zero) only when a row went. */
  withdrawUpvote: `
WITH removed AS (
  DELETE FROM post_upvotes WHERE post_id = $1 AND voter_did = $2 RETURNING post_id
), lowered AS (
  UPDATE posts SET upvote_count = GREATEST(upvote_count - 1, 0)
  WHERE id = $1 AND EXISTS (SELECT 1 FROM removed) RETURNING upvote_count
)
SELECT COALESCE((SELECT upvote_count FROM lowered), (SELECT upvote_count FROM posts WHERE id = $1)) AS count`,
  /** Of the posts $2, those the person $1 upvoted. */
  upvotedBy: 'SELECT post_id FROM post_upvotes WHERE voter_did = $1 AND post_id = ANY($2::uuid[])',
  /**
   * A post's ($4) chain position ($1 content id, $2 head, $3 document), whatever was stored: the
   * text TypeORM's update sent, kept so the bench's twin runs this very statement.
   */
  setChainColumns:
    'UPDATE "posts" SET "content_id" = $1, "head_cid" = $2, "document_cid" = $3 WHERE "id" = $4',
  /**
   * Stores a post's chain position ($1 post; $2 content id, $3 head, $4 document) only when its
   * head is still the expected one ($5), or none (`first`): a compare-and-set across replicas.
   */
  storeHead: {
    first:
      'UPDATE posts SET content_id = $2, head_cid = $3, document_cid = $4 WHERE id = $1 AND head_cid IS NULL',
    after:
      'UPDATE posts SET content_id = $2, head_cid = $3, document_cid = $4 WHERE id = $1 AND head_cid = $5',
  },
  /**
   * The posts of a space ($1), or of one of its topics ($2), whose chain follows an access change:
   * live ones, and deleted ones that still hold a chain.
   */
  chained: {
    inSpace: 'SELECT id FROM posts WHERE space_id = $1 AND (deleted_at IS NULL OR content_id IS NOT NULL)',
    inTopic:
      'SELECT id FROM posts WHERE space_id = $1 AND (deleted_at IS NULL OR content_id IS NOT NULL) AND topic_id = $2',
  },
  /** A page of an author's ($1) live posts for their export ($2 rows; `after`: $3, $4 the last (published_at, id)). */
  exportPage: {
    first: `SELECT ${EXPORTED_POST_COLUMNS} FROM posts WHERE author_did = $1 AND deleted_at IS NULL
      ORDER BY published_at, id LIMIT $2`,
    after: `SELECT ${EXPORTED_POST_COLUMNS} FROM posts WHERE author_did = $1 AND deleted_at IS NULL
      AND (published_at, id) > ($3::timestamptz, $4::uuid) ORDER BY published_at, id LIMIT $2`,
  },
  /**
   * A page of a space's ($1) live posts for its export ($2 rows; `after`: $3, $4 the last
   * (published_at, id)), on `idx_posts_space_recent` (docs/decisions/0216-space-export-archive-layout.md).
   */
  exportPageOfSpace: {
    first: `SELECT ${EXPORTED_POST_COLUMNS} FROM posts WHERE space_id = $1 AND deleted_at IS NULL
      ORDER BY published_at, id LIMIT $2`,
    after: `SELECT ${EXPORTED_POST_COLUMNS} FROM posts WHERE space_id = $1 AND deleted_at IS NULL
      AND (published_at, id) > ($3::timestamptz, $4::uuid) ORDER BY published_at, id LIMIT $2`,
  },
  /**
   * Erasure of an author ($1) at $2 (docs/decisions/0196-what-an-erasure-removes-and-keeps.md):
   * their live posts, locked, for the counts and the chain outbox…
   */
  erasableLivePosts:
    'SELECT id, space_id, topic_id, title, content_id FROM posts WHERE author_did = $1 AND deleted_at IS NULL ORDER BY id FOR UPDATE',
  /** …then every post of theirs deleted with its text and attachments gone (the slug, made of the text, too). */
  erasePosts:
    "UPDATE posts SET deleted_at = COALESCE(deleted_at, $2), title = NULL, body = '', excerpt = NULL, " +
    "display_title = NULL, slug = 'erased-' || id::text, attachment_ids = '[]', updated_at = $2 WHERE author_did = $1",
  /** Their upvotes ($1) gone, each post's counter lowered with it. */
  eraseUpvotes:
    'WITH gone AS (DELETE FROM post_upvotes WHERE voter_did = $1 RETURNING post_id) ' +
    'UPDATE posts SET upvote_count = GREATEST(upvote_count - 1, 0) FROM gone WHERE posts.id = gone.post_id',
});

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

/** What the checks on a post need of it (comments and upvotes hang on it): never its body. */
export type PostHead = Pick<Post, 'id' | 'spaceId' | 'topicId' | 'authorDid'>;

/** The author record a post insert read (the users module's view `author_records`). */
export interface InsertedAccount {
  handle: string | null;
  displayName: string | null;
  avatarId: string | null;
}

/** The columns a post edit changes. */
export type PostEdit = Pick<
  Post,
  | 'title'
  | 'body'
  | 'topicId'
  | 'slug'
  | 'excerpt'
  | 'displayTitle'
  | 'cardTextAt'
  | 'attachmentIds'
  | 'updatedAt'
>;

/**
 * Every statement on `posts` and `post_upvotes` but the card pages and the counters. Each write
 * takes the transaction's runner last.
 */
@Injectable()
export class PostsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async liveInSpace(postId: string, spaceId: string): Promise<Post | null> {
    const rows = await this.dataSource.query<PostRow[]>(POSTS_STATEMENTS.livePostInSpace, [postId, spaceId]);
    return rows.length === 0 ? null : postOfRow(rows[0]);
  }

  async headInSpace(postId: string, spaceId: string): Promise<PostHead | null> {
    const rows = await this.dataSource.query<
      { id: string; space_id: string; topic_id: string; author_did: string }[]
    >(POSTS_STATEMENTS.postHeadInSpace, [postId, spaceId]);
    if (rows.length === 0) return null;
    const [row] = rows;
    return { id: row.id, spaceId: row.space_id, topicId: row.topic_id, authorDid: row.author_did };
  }

  /** A live post of a space by key (TypeORM's entity read; an internal link's target). */
  liveById(postId: string, spaceId: string): Promise<Post | null> {
    return this.dataSource.getRepository(Post).findOne({ where: { id: postId, spaceId } });
  }

  /** A post, deleted or not, by key (its content chain's state). */
  anyById(postId: string): Promise<Post | null> {
    return this.dataSource.getRepository(Post).findOne({ where: { id: postId }, withDeleted: true });
  }

  /** The stored chain position of a live post. */
  chainPosition(postId: string): Promise<Pick<Post, 'id' | 'contentId' | 'headCid' | 'documentCid'> | null> {
    return this.dataSource.getRepository(Post).findOne({
      where: { id: postId },
      select: { id: true, contentId: true, headCid: true, documentCid: true },
    });
  }

  /**
   * Inserts a new post, counts it in its topic and reads its author's record, in one statement on
   * the write's runner.
   */
  async insert(
    post: Post,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<InsertedAccount | undefined> {
    const [account] = await runner.query<InsertedAccount[]>(POSTS_STATEMENTS.insert, [
      post.id,
      post.spaceId,
      post.topicId,
      post.authorDid,
      post.title,
      post.body,
      post.excerpt,
      post.displayTitle,
      post.cardTextAt,
      post.slug,
      JSON.stringify(post.attachmentIds),
      post.upvoteCount,
      post.commentCount,
      post.isPinned,
      post.publishedAt,
      post.updatedAt,
      post.deletedAt,
      post.contentId,
      post.headCid,
      post.documentCid,
      ...countChangeParameters(post, +1),
      post.authorDid,
    ]);
    return account;
  }

  async update(
    postId: string,
    edit: PostEdit,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.update(Post, { id: postId }, edit);
  }

  /** The author's live posts, locked in `runner`'s transaction (erasure). */
  erasableLivePosts(
    authorDid: string,
    runner: EntityManager,
  ): Promise<
    { id: string; space_id: string; topic_id: string; title: string | null; content_id: string | null }[]
  > {
    return runner.query(POSTS_STATEMENTS.erasableLivePosts, [authorDid]);
  }

  /** Every post of the author deleted without its text; their upvotes gone (erasure). */
  async erasePostsOf(authorDid: string, at: Date, runner: EntityManager): Promise<ErasedRows> {
    const posts = affectedRows(await runner.query(POSTS_STATEMENTS.erasePosts, [authorDid, at]));
    const upvotes = affectedRows(await runner.query(POSTS_STATEMENTS.eraseUpvotes, [authorDid]));
    return { posts, post_upvotes: upvotes };
  }

  async softDelete(postId: string, at: Date, runner: EntityManager = this.dataSource.manager): Promise<void> {
    await runner.update(Post, { id: postId }, { deletedAt: at });
  }

  /** Pins or unpins a post; false when it already was as asked. */
  async setPinned(
    postId: string,
    pinned: boolean,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const changed = await runner.update(Post, { id: postId, isPinned: !pinned }, { isPinned: pinned });
    return Boolean(changed.affected);
  }

  async setChainColumns(
    postId: string,
    head: ChainColumns,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.query(POSTS_STATEMENTS.setChainColumns, [
      head.contentId,
      head.headCid,
      head.documentCid,
      postId,
    ]);
  }

  /** Stores the chain position `next` when the stored head is still `expectedHead`; false otherwise. */
  async storeHead(postId: string, expectedHead: string | null, next: ChainColumns): Promise<boolean> {
    const values = [postId, next.contentId, next.headCid, next.documentCid];
    const [, affected] = await this.dataSource.query<[unknown[], number]>(
      expectedHead === null ? POSTS_STATEMENTS.storeHead.first : POSTS_STATEMENTS.storeHead.after,
      expectedHead === null ? values : [...values, expectedHead],
    );
    return affected === 1;
  }

  async countComment(
    postId: string,
    delta: 1 | -1,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.query(
      delta > 0 ? POSTS_STATEMENTS.commentCount.added : POSTS_STATEMENTS.commentCount.removed,
      [postId],
    );
  }

  /** Upvotes; the post's count after, and whether the upvote is new. */
  async upvote(
    postId: string,
    voterDid: string,
    at: Date,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<{ count: number | null; changed: boolean } | undefined> {
    const [row] = await runner.query<{ count: number | null; changed: boolean }[]>(POSTS_STATEMENTS.upvote, [
      postId,
      voterDid,
      at,
    ]);
    return row;
  }

  /**
   * A page of an author's live posts for their export, oldest first by (published_at, id) on
   * `idx_posts_author` (docs/decisions/0210-personal-export-archive-layout.md).
   */
  async exportPage(
    authorDid: string,
    after: [string, string] | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<ExportedPostRow[]> {
    const { exportPage } = POSTS_STATEMENTS;
    return after
      ? runner.query<ExportedPostRow[]>(exportPage.after, [authorDid, limit, after[0], after[1]])
      : runner.query<ExportedPostRow[]>(exportPage.first, [authorDid, limit]);
  }

  /** A page of the space's live posts, oldest first, for the space's export. */
  async exportPageOfSpace(
    spaceId: string,
    after: [string, string] | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<ExportedPostRow[]> {
    const { exportPageOfSpace } = POSTS_STATEMENTS;
    return after
      ? runner.query<ExportedPostRow[]>(exportPageOfSpace.after, [spaceId, limit, after[0], after[1]])
      : runner.query<ExportedPostRow[]>(exportPageOfSpace.first, [spaceId, limit]);
  }

  /** Withdraws an upvote; the post's count after. */
  async withdrawUpvote(postId: string, voterDid: string): Promise<number | null> {
    const rows = await this.dataSource.query<{ count: number | null }[]>(POSTS_STATEMENTS.withdrawUpvote, [
      postId,
      voterDid,
    ]);
    return rows[0]?.count ?? null;
  }

  async upvotedBy(did: string, postIds: string[]): Promise<Set<string>> {
    const rows = await this.dataSource.query<{ post_id: string }[]>(POSTS_STATEMENTS.upvotedBy, [
      did,
      postIds,
    ]);
    return new Set(rows.map((row) => row.post_id));
  }

  /** The posts whose chain follows an access change of a space, or of one of its topics. */
  async chained(
    spaceId: string,
    topicId: string | null,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows = await runner.query<{ id: string }[]>(
      topicId === null ? POSTS_STATEMENTS.chained.inSpace : POSTS_STATEMENTS.chained.inTopic,
      topicId === null ? [spaceId] : [spaceId, topicId],
    );
    return rows.map((row) => row.id);
  }
}
