import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { formatEntityId } from '../../common/ids/entity-id';
import { MediaLookupService, MediaObject } from '../../media';
import { AuthorDirectoryService, AuthorRecord } from '../../users';
import { CommentsRepository } from '../comments.repository';
import { CommentItem } from '../dto/comment-records.dto';
import { Comment } from '../entities/comment.entity';

/**
 * Comments as api-spec.md "Comment" shows them: their authors, their live attachments and whether
 * the viewer upvoted them, each read once for the whole page.
 */
@Injectable()
export class CommentsPresenter {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly authors: AuthorDirectoryService,
    private readonly media: MediaLookupService,
  ) {}

  /**
   * The items of `rows`, as `viewerDid` sees them (null: nobody's upvotes are looked up); every
   * read through `runner` when given (an export's snapshot).
   */
  async items(viewerDid: string | null, rows: Comment[], runner?: EntityManager): Promise<CommentItem[]> {
    const live = rows.filter((row) => !row.deletedAt);
    const [authors, upvoted, media] = await Promise.all([
      this.authors.authorsOf(
        rows.map((row) => row.authorDid),
        runner,
      ),
      this.upvotedBy(
        viewerDid,
        rows.map((row) => row.id),
        runner,
      ),
      this.media.objects(
        live.flatMap((row) => row.attachmentIds),
        runner,
      ),
    ]);
    return rows.map((row) => item(row, authors.get(row.authorDid) ?? { did: row.authorDid }, upvoted, media));
  }

  private async upvotedBy(
    voterDid: string | null,
    commentIds: string[],
    runner?: EntityManager,
  ): Promise<Set<string>> {
    if (voterDid === null || commentIds.length === 0) return new Set();
    return this.comments.upvotedBy(voterDid, commentIds, runner);
  }
}

function item(
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
