import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Repository } from 'typeorm';
import { RequestPrincipal } from '../common/auth/request-authenticator';
import { Clock } from '../common/clock/clock';
import { forbidden, invalidRequest, notFound } from '../common/errors/api-error';
import { formatEntityId, newUuid, parseEntityId } from '../common/ids/entity-id';
import { CursorCodec } from '../common/pagination/cursor-codec';
import { KeysetColumn, paginateKeyset } from '../common/pagination/keyset';
import { DomainEvents } from '../infrastructure/events/domain-events.service';
import { PostAccess } from '../posts';
import { SpaceDirectory, SpaceWriter } from '../spaces';
import { MediaLookup, MediaObject } from '../media';
import { AuthorDirectory, AuthorRecord } from '../users';
import {
  CommentDeletion,
  CommentItem,
  CommentListing,
  CommentUpvoteState,
  CreatedComment,
} from './dto/comment-records.dto';
import { CommentSort, CommentsQuery, CreateCommentBody, UpdateCommentBody } from './dto/comment-requests.dto';
import { Comment } from './entities/comment.entity';
import { readCommentRows } from './comment-rows';
import { CommentUpvote } from './entities/comment-upvote.entity';
import { CommentAdded, CommentRemoved, CommentUpvoted } from './events/comment-events';

const INLINE_IMAGE = /attachment:\/\//i;

/**
 * Comments on posts (api-spec.md "Comment", the comment rows of "Writes"):
 * - a comment hangs on a post the caller can read in full (PostAccess.readablePost), else the 404;
 * - threads are one level deep: a reply to a reply attaches to the same root (rule 6); a root's
 *   `activityAt` is the later of its publication and its latest reply;
 * - only the author edits or deletes a comment, admins included (rule 8: 403); a deleted comment
 *   stays as a tombstone (body null, attachments [], its author kept: only a post's author may be
 *   null, api-spec.md "Comment") so its replies keep their root,
 *   and cannot be edited, deleted again, replied to or upvoted (404);
 * - `replyCount` counts live replies; the post's `commentCount` is the posts module's, kept on
 *   `CommentAdded` / `CommentRemoved` inside the same transaction.
 */
@Injectable()
export class CommentsService {
  constructor(
    @InjectRepository(Comment) private readonly comments: Repository<Comment>,
    private readonly dataSource: DataSource,
    private readonly access: PostAccess,
    private readonly directory: SpaceDirectory,
    private readonly authors: AuthorDirectory,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
    private readonly media: MediaLookup,
  ) {}

  /**
   * GET /v1/spaces/{space}/posts/{postId}/comments. Roots ordered by `activityAt`, replies of one
   * root (`parentCommentId`) by `publishedAt`; `top` orders by upvotes, then newest. A
   * `parentCommentId` that is not a root of this post lists nothing (a hidden filter is emptiness).
   */
  async list(
    principal: RequestPrincipal,
    spaceRef: string,
    postId: string,
    query: CommentsQuery,
  ): Promise<CommentListing> {
    const { view, post } = await this.access.readablePost(principal, spaceRef, postId);
    const sort: CommentSort = query.sort ?? 'newest';
    const replies = query.parentCommentId !== undefined;
    const builder = this.comments.createQueryBuilder('c').where('c.postId = :postId', { postId: post.id });
    if (replies) {
      const parentId = parseEntityId('comment', query.parentCommentId);
      if (parentId) builder.andWhere('c.parentCommentId = :parentId', { parentId });
      else builder.andWhere('FALSE');
    } else {
      builder.andWhere('c.parentCommentId IS NULL');
    }
    const time = replies ? 'publishedAt' : 'activityAt';
    const columns: KeysetColumn[] =
      sort === 'oldest'
        ? [
            { expression: `c.${time}`, direction: 'ASC' },
            { expression: 'c.id', direction: 'ASC' },
          ]
        : [
            ...(sort === 'top' ? [{ expression: 'c.upvoteCount', direction: 'DESC' as const }] : []),
            { expression: `c.${time}`, direction: 'DESC' },
            { expression: 'c.id', direction: 'DESC' },
          ];
    const page = await paginateKeyset(
      builder,
      {
        listing: `comments:${replies ? 'replies' : 'roots'}:${sort}`,
        columns,
        keyOf: (row: Comment) => [
          ...(sort === 'top' ? [row.upvoteCount] : []),
          row[time].toISOString(),
          row.id,
        ],
        page: query,
        cursors: this.cursors,
      },
      readCommentRows,
    );
    return {
      // `viewer` is the member view's person: a grant not covering the space reads as anyone (item 6).
      items: await this.items(view.kind === 'member' ? view.did : null, page.rows),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** POST /v1/spaces/{space}/posts/{postId}/comments: 201 with the comment minus `activityAt`. */
  async create(
    principal: RequestPrincipal,
    spaceRef: string,
    postId: string,
    input: CreateCommentBody,
  ): Promise<CreatedComment> {
    const body = input.body ?? null;
    const attachments = input.attachments ?? [];
    this.checkContent(body, attachments);
    const writer = await this.access.writer(principal, spaceRef, 'write:comments');
    const post = await this.access.postReadableByWriter(writer, postId);
    const attachmentIds = await this.resolveAttachments(writer, attachments);

    let rootId: string | null = null;
    let rootAuthorDid: string | null = null;
    if (input.parentCommentId !== undefined) {
      const parentId = parseEntityId('comment', input.parentCommentId);
      const parent = parentId
        ? await this.comments.findOneBy({ id: parentId, postId: post.id, deletedAt: IsNull() })
        : null;
      if (!parent) throw notFound();
      rootId = parent.parentCommentId ?? parent.id;
      rootAuthorDid = await this.liveAuthorOf(parent, rootId);
    }

    const now = this.clock.now();
    const comment = this.comments.create({
      id: newUuid(),
      postId: post.id,
      spaceId: writer.space.id,
      parentCommentId: rootId,
      authorDid: writer.did,
      body,
      attachmentIds,
      upvoteCount: 0,
      replyCount: 0,
      publishedAt: now,
      activityAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(Comment, comment);
      if (rootId) {
        await manager
          .createQueryBuilder()
          .update(Comment)
          .set({
            replyCount: () => 'reply_count + 1',
            activityAt: () => 'GREATEST(activity_at, :now)',
          })
          .where('id = :rootId', { rootId })
          .setParameter('now', now)
          .execute();
      }
      await this.events.emit(
        manager,
        new CommentAdded(writer.space.id, post.id, comment.id, writer.did, post.authorDid, rootAuthorDid),
      );
      await this.directory.recordActivity(writer.space.id, now, manager);
    });
    // Read as no viewer: nobody can have upvoted a comment whose id this answer is the first to
    // tell, so its upvotes are not looked up.
    const [item] = await this.items(null, [comment]);
    const { activityAt: _activityAt, ...created } = item;
    return created;
  }

  /** PATCH /v1/spaces/{space}/comments/{commentId}: body and/or attachments, each replaced whole. */
  async update(
    principal: RequestPrincipal,
    spaceRef: string,
    commentId: string,
    input: UpdateCommentBody,
  ): Promise<CommentItem> {
    if (input.body === undefined && input.attachments === undefined) {
      throw invalidRequest('Name body, attachments or both', [
        { path: 'body', message: 'body or attachments is required' },
      ]);
    }
    const { comment, writer } = await this.ownComment(principal, spaceRef, commentId, 'write:comments');
    const body = input.body === undefined ? comment.body : input.body;
    const attachments = input.attachments ?? comment.attachmentIds;
    this.checkContent(body, attachments);
    if (input.attachments !== undefined) {
      comment.attachmentIds = await this.resolveAttachments(writer, input.attachments);
    }
    comment.body = body;
    comment.updatedAt = this.clock.now();
    await this.comments.update(
      { id: comment.id },
      { body: comment.body, attachmentIds: comment.attachmentIds, updatedAt: comment.updatedAt },
    );
    const [item] = await this.items(principal.did, [comment]);
    return item;
  }

  /** DELETE /v1/spaces/{space}/comments/{commentId}: leaves a tombstone; `{deleted: true}`. */
  async remove(principal: RequestPrincipal, spaceRef: string, commentId: string): Promise<CommentDeletion> {
    const { comment } = await this.ownComment(principal, spaceRef, commentId, 'write:comments');
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      const result = await manager.update(
        Comment,
        { id: comment.id, deletedAt: IsNull() },
        { body: null, attachmentIds: [], deletedAt: now, updatedAt: now },
      );
      if (!result.affected) return;
      if (comment.parentCommentId) {
        await manager
          .createQueryBuilder()
          .update(Comment)
          .set({ replyCount: () => 'GREATEST(reply_count - 1, 0)' })
          .where('id = :rootId', { rootId: comment.parentCommentId })
          .execute();
      }
      await this.events.emit(manager, new CommentRemoved(comment.spaceId, comment.postId, comment.id));
    });
    return { deleted: true };
  }

  /** PUT (`upvoted` true) or DELETE (false) /v1/spaces/{space}/comments/{commentId}/upvote. */
  async setUpvote(
    principal: RequestPrincipal,
    spaceRef: string,
    commentId: string,
    upvoted: boolean,
  ): Promise<CommentUpvoteState> {
    const { comment } = await this.readableComment(principal, spaceRef, commentId, 'write:upvotes');
    const voterDid = principal.did;
    const upvoteCount = await this.dataSource.transaction(async (manager) => {
      const changed = upvoted
        ? await this.insertUpvote(manager, comment.id, voterDid)
        : await this.deleteUpvote(manager, comment.id, voterDid);
      if (changed) {
        await manager
          .createQueryBuilder()
          .update(Comment)
          .set({
            upvoteCount: () => (upvoted ? 'upvote_count + 1' : 'GREATEST(upvote_count - 1, 0)'),
          })
          .where('id = :id', { id: comment.id })
          .execute();
        if (upvoted) {
          await this.events.emit(
            manager,
            new CommentUpvoted(comment.spaceId, comment.postId, comment.id, comment.authorDid, voterDid),
          );
        }
      }
      const row = await manager.findOneByOrFail(Comment, { id: comment.id });
      return row.upvoteCount;
    });
    return { upvoted, upvoteCount };
  }

  /** Who wrote the live root comment of a thread (the parent itself, or the parent's root). */
  private async liveAuthorOf(parent: Comment, rootId: string): Promise<string | null> {
    if (parent.id === rootId) return parent.authorDid;
    const root = await this.comments.findOne({
      where: { id: rootId, deletedAt: IsNull() },
      select: { id: true, authorDid: true },
    });
    return root?.authorDid ?? null;
  }

  /** Whether this upvote was new (`ON CONFLICT DO NOTHING`: a repeat changes nothing). */
  private async insertUpvote(manager: EntityManager, commentId: string, voterDid: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO comment_upvotes (comment_id, voter_did, created_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING comment_id`,
      [commentId, voterDid, this.clock.now()],
    );
    return rows.length > 0;
  }

  /** Whether there was an upvote to withdraw. */
  private async deleteUpvote(manager: EntityManager, commentId: string, voterDid: string): Promise<boolean> {
    const result = await manager.delete(CommentUpvote, { commentId, voterDid });
    return (result.affected ?? 0) > 0;
  }

  /** A live comment of the space, on a post the writer can read, written by the caller (else 403). */
  private async ownComment(
    principal: RequestPrincipal,
    spaceRef: string,
    commentId: string,
    scope: 'write:comments',
  ): Promise<{ comment: Comment; writer: SpaceWriter }> {
    const found = await this.readableComment(principal, spaceRef, commentId, scope);
    if (found.comment.authorDid !== principal.did) {
      throw forbidden('Only the author can change or delete a comment');
    }
    return found;
  }

  /** A live comment of the space on a post the writer can read, else the 404. */
  private async readableComment(
    principal: RequestPrincipal,
    spaceRef: string,
    commentId: string,
    scope: 'write:comments' | 'write:upvotes',
  ): Promise<{ comment: Comment; writer: SpaceWriter }> {
    const writer = await this.access.writer(principal, spaceRef, scope);
    const id = parseEntityId('comment', commentId);
    const comment = id
      ? await this.comments.findOneBy({ id, spaceId: writer.space.id, deletedAt: IsNull() })
      : null;
    if (!comment) throw notFound();
    await this.access.postReadableByWriter(writer, formatEntityId('post', comment.postId));
    return { comment, writer };
  }

  /** A comment carries a body, attachments or both; its body places no inline images (rule 3). */
  private checkContent(body: string | null, attachments: string[]): void {
    if (body === null && attachments.length === 0) {
      throw invalidRequest('A comment needs a body or attachments', [
        { path: 'body', message: 'body or attachments is required' },
      ]);
    }
    if (body !== null && INLINE_IMAGE.test(body)) {
      throw invalidRequest('Comment bodies refuse inline images', [
        { path: 'body', message: 'attachment:// tokens are not allowed in comment bodies' },
      ]);
    }
  }

  /** Attachments are ready media the writer uploaded to this space (design.md §11 "Use"): their uuids. */
  private resolveAttachments(writer: SpaceWriter, ids: string[]): Promise<string[]> {
    return this.media.attachable(
      ids.map((mediaId, index) => ({ path: `attachments.${index}`, mediaId })),
      { spaceId: writer.space.id, uploaderDid: writer.did },
    );
  }

  private async items(viewerDid: string | null, rows: Comment[]): Promise<CommentItem[]> {
    const live = rows.filter((row) => !row.deletedAt);
    const [authors, upvoted, media] = await Promise.all([
      this.authors.authorsOf(rows.map((row) => row.authorDid)),
      this.upvotedBy(
        viewerDid,
        rows.map((row) => row.id),
      ),
      this.media.objects(live.flatMap((row) => row.attachmentIds)),
    ]);
    return rows.map((row) =>
      this.item(row, authors.get(row.authorDid) ?? { did: row.authorDid }, upvoted, media),
    );
  }

  private item(
    row: Comment,
    author: AuthorRecord,
    upvoted: Set<string>,
    media: Map<string, MediaObject>,
  ): CommentItem {
    return {
      id: formatEntityId('comment', row.id),
      postId: formatEntityId('post', row.postId),
      ...(row.parentCommentId ? { parentCommentId: formatEntityId('comment', row.parentCommentId) } : {}),
      author,
      body: row.deletedAt ? null : row.body,
      attachments: row.deletedAt ? [] : row.attachmentIds.flatMap((id) => media.get(id) ?? []),
      publishedAt: row.publishedAt.toISOString(),
      activityAt: row.activityAt.toISOString(),
      upvoteCount: row.upvoteCount,
      replyCount: row.parentCommentId ? 0 : row.replyCount,
      viewer: { upvoted: upvoted.has(row.id) },
    };
  }

  private async upvotedBy(voterDid: string | null, commentIds: string[]): Promise<Set<string>> {
    if (voterDid === null || commentIds.length === 0) return new Set();
    const rows: { comment_id: string }[] = await this.dataSource.query(
      'SELECT comment_id FROM comment_upvotes WHERE voter_did = $1 AND comment_id = ANY($2)',
      [voterDid, commentIds],
    );
    return new Set(rows.map((row) => row.comment_id));
  }
}
