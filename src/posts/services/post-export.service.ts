import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { formatEntityId } from '../../common/ids/entity-id';
import {
  EXPORT_PAGE_ROWS,
  exportCursorOf,
  exportCursorValues,
  ExportPage,
  exportPageOf,
} from '../../common/export/export-page';
import { ExportedPostRow, PostsRepository } from '../repositories/posts.repository';

/** A post as the person's export holds it: the Post record's field names, wire ids, full body. */
export interface ExportedPost {
  id: string;
  spaceId: string;
  topicId: string;
  title: string | null;
  body: string;
  slug: string;
  attachmentIds: string[];
  upvoteCount: number;
  commentCount: number;
  isPinned: boolean;
  publishedAt: string;
  updatedAt: string;
  contentId: string | null;
  headCid: string | null;
}

/**
 * The posts module's part of a personal export (issue 35 item 3;
 * docs/decisions/0210-personal-export-archive-layout.md): the author's live posts, a keyset page
 * per call (one statement), whatever their spaces let them read today: they wrote them.
 */
@Injectable()
export class PostExportService {
  constructor(private readonly posts: PostsRepository) {}

  async pageOf(
    authorDid: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<ExportedPost>> {
    const rows = await this.posts.exportPage(
      authorDid,
      after ? exportCursorValues(after) : null,
      limit + 1,
      runner,
    );
    return exportPageOf(rows, limit, (row) => exportCursorOf(row.published_at, row.id), exportedPost);
  }

  /**
   * A page of a space's live posts, every author's, for the space's export (issue 35 item 4;
   * docs/decisions/0216-space-export-archive-layout.md): one statement, oldest first.
   */
  async pageOfSpace(
    spaceId: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<ExportedPost>> {
    const rows = await this.posts.exportPageOfSpace(
      spaceId,
      after ? exportCursorValues(after) : null,
      limit + 1,
      runner,
    );
    return exportPageOf(rows, limit, (row) => exportCursorOf(row.published_at, row.id), exportedPost);
  }
}

function exportedPost(row: ExportedPostRow): ExportedPost {
  return {
    id: formatEntityId('post', row.id),
    spaceId: formatEntityId('space', row.space_id),
    topicId: formatEntityId('topic', row.topic_id),
    title: row.title,
    body: row.body,
    slug: row.slug,
    attachmentIds: row.attachment_ids.map((id) => formatEntityId('media', id)),
    upvoteCount: row.upvote_count,
    commentCount: row.comment_count,
    isPinned: row.is_pinned,
    publishedAt: row.published_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    contentId: row.content_id,
    headCid: row.head_cid,
  };
}
