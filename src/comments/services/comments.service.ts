import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { forbidden, invalidRequest, notFound } from '../../common/errors/api-error';
import { formatEntityId, newUuid, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { LinkPreviewsService } from '../../link-previews';
import { bareUrlsOf, PostAccessService } from '../../posts';
import { SpaceDirectoryService, SpaceWriter } from '../../spaces';
import { MediaLookupService } from '../../media';
import { CommentsRepository } from '../comments.repository';
import {
  CommentDeletion,
  CommentItem,
  CommentListing,
  CommentUpvoteState,
  CreatedComment,
} from '../dto/comment-records.dto';
import {
  CommentSort,
  CommentsQuery,
  CreateCommentBody,
  UpdateCommentBody,
} from '../dto/comment-requests.dto';
import { Comment } from '../entities/comment.entity';
import { CommentAdded, CommentRemoved, CommentUpvoted } from '../events/comment.events';
import { CommentsPresenter } from './comments.presenter';

const INLINE_IMAGE = /attachment:\/\//i;

/**
 * Comments on posts (api-spec.md "Comment", the comment rows of "Writes"):
 * - a comment hangs on a post the caller can read in full (PostAccessService.readablePost), else the 404;
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
    private readonly comments: CommentsRepository,
    private readonly presenter: CommentsPresenter,
    private readonly dataSource: DataSource,
    private readonly access: PostAccessService,
    private readonly directory: SpaceDirectoryService,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
    private readonly media: MediaLookupService,
    private readonly previews: LinkPreviewsService,
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
    const rootId = replies ? parseEntityId('comment', query.parentCommentId) : null;
    const time = replies ? 'publishedAt' : 'activityAt';
    // The listing's sort key (the statements' order: CommentsRepository's `page` variants).
    const columns: KeysetColumn[] =
      sort === 'oldest'
        ? [
            { expression: time, direction: 'ASC' },
            { expression: 'id', direction: 'ASC' },
          ]
        : [
            ...(sort === 'top' ? [{ expression: 'upvoteCount', direction: 'DESC' as const }] : []),
            { expression: time, direction: 'DESC' },
            { expression: 'id', direction: 'DESC' },
          ];
    const keyset = {
      listing: `comments:${replies ? 'replies' : 'roots'}:${sort}`,
      columns,
      keyOf: (row: Comment) => [
        ...(sort === 'top' ? [row.upvoteCount] : []),
        row[time].toISOString(),
        row.id,
      ],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    // A `parentCommentId` that is no comment id lists nothing.
    const rows =
      replies && !rootId
        ? []
        : await this.comments.page(
            rootId ? { postId: post.id, rootId } : { postId: post.id, rootId: null },
            sort,
            seek,
          );
    const page = closeKeysetPage(seek, rows, keyset);
    return {
      // `viewer` is the member view's person: a grant not covering the space reads as anyone
      // (docs/decisions/0059-comments-tables-access-listing-and-writes.md).
      items: await this.presenter.items(view.kind === 'member' ? view.did : null, page.rows),
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
      const parent = parentId ? await this.comments.liveOfPost(parentId, post.id) : null;
      if (!parent) throw notFound();
      rootId = parent.parentCommentId ?? parent.id;
      rootAuthorDid = await this.liveAuthorOf(parent, rootId);
    }

    const now = this.clock.now();
    const comment = Object.assign(new Comment(), {
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
      await this.comments.insert(comment, manager);
      if (rootId) await this.comments.countReply(rootId, now, manager);
      await this.events.emit(
        manager,
        new CommentAdded(writer.space.id, post.id, comment.id, writer.did, post.authorDid, rootAuthorDid),
      );
      await this.directory.recordActivity(writer.space.id, now, manager);
    });
    this.resolveLinksOf(body);
    // Read as no viewer: nobody can have upvoted a comment whose id this answer is the first to
    // tell, so its upvotes are not looked up.
    const [item] = await this.presenter.items(null, [comment]);
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
    await this.comments.updateContent(comment);
    if (input.body !== undefined) this.resolveLinksOf(body);
    const [item] = await this.presenter.items(principal.did, [comment]);
    return item;
  }

  /**
   * After a comment's write committed: the bare URLs of its body are queued for their previews,
   * with no statement (docs/decisions/0157-link-resolution-queued-after-the-write.md).
   */
  private resolveLinksOf(body: string | null): void {
    const urls = body ? bareUrlsOf(body) : [];
    if (urls.length > 0) this.previews.resolveSoon(urls);
  }

  /** DELETE /v1/spaces/{space}/comments/{commentId}: leaves a tombstone; `{deleted: true}`. */
  async remove(principal: RequestPrincipal, spaceRef: string, commentId: string): Promise<CommentDeletion> {
    const { comment } = await this.ownComment(principal, spaceRef, commentId, 'write:comments');
    const now = this.clock.now();
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.comments.tombstone(comment.id, now, manager))) return;
      if (comment.parentCommentId) await this.comments.uncountReply(comment.parentCommentId, manager);
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
        ? await this.comments.insertUpvote(comment.id, voterDid, this.clock.now(), manager)
        : await this.comments.deleteUpvote(comment.id, voterDid, manager);
      if (changed) {
        await this.comments.moveUpvoteCount(comment.id, upvoted, manager);
        if (upvoted) {
          await this.events.emit(
            manager,
            new CommentUpvoted(comment.spaceId, comment.postId, comment.id, comment.authorDid, voterDid),
          );
        }
      }
      return this.comments.upvoteCountOf(comment.id, manager);
    });
    return { upvoted, upvoteCount };
  }

  /** Who wrote the live root comment of a thread (the parent itself, or the parent's root). */
  private async liveAuthorOf(parent: Comment, rootId: string): Promise<string | null> {
    if (parent.id === rootId) return parent.authorDid;
    return this.comments.liveAuthorOf(rootId);
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
    const comment = id ? await this.comments.liveOfSpace(id, writer.space.id) : null;
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
}
