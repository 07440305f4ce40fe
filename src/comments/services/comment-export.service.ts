import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  EXPORT_PAGE_ROWS,
  exportCursorOf,
  exportCursorValues,
  ExportPage,
} from '../../common/export/export-page';
import { CommentsRepository } from '../comments.repository';
import { CommentItem } from '../dto/comment-records.dto';
import { CommentsPresenter } from './comments.presenter';

/**
 * The comments module's part of a personal export (issue 35 item 3;
 * docs/decisions/0210-personal-export-archive-layout.md): the author's live comments in the
 * Comment record's shape, as they see them, a keyset page per call (one statement, then the
 * presenter's batches: authors, upvotes and attachments of the whole page at once).
 */
@Injectable()
export class CommentExportService {
  constructor(
    private readonly comments: CommentsRepository,
    private readonly presenter: CommentsPresenter,
  ) {}

  async pageOf(
    authorDid: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<CommentItem>> {
    const rows = await this.comments.exportPage(
      authorDid,
      after ? exportCursorValues(after) : null,
      limit + 1,
      runner,
    );
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      items: await this.presenter.items(authorDid, shown, runner),
      after: rows.length > limit && last ? exportCursorOf(last.publishedAt, last.id) : null,
    };
  }

  /**
   * A page of a space's live comments, every author's, for the space's export (issue 35 item 4;
   * docs/decisions/0216-space-export-archive-layout.md), as its owner (`viewerDid`) reads them:
   * one statement, then the presenter's batches.
   */
  async pageOfSpace(
    spaceId: string,
    viewerDid: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<CommentItem>> {
    const rows = await this.comments.exportPageOfSpace(
      spaceId,
      after ? exportCursorValues(after) : null,
      limit + 1,
      runner,
    );
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      items: await this.presenter.items(viewerDid, shown, runner),
      after: rows.length > limit && last ? exportCursorOf(last.publishedAt, last.id) : null,
    };
  }
}
