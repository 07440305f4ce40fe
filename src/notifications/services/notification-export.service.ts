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
import { ExportedNotificationRow, NotificationsRepository } from '../notifications.repository';

/** A notification as the person's export holds it: the record's field names, every person it names. */
export interface ExportedNotification {
  id: string;
  type: string;
  spaceId: string | null;
  audience: string;
  scope: unknown;
  aggregationType: string | null;
  people: unknown[];
  itemCount: number;
  readState: string;
  firstActivityAt: string;
  lastActivityAt: string;
  lastReadAt: string | null;
  createdAt: string;
}

/**
 * The notifications module's part of a personal export (issue 35 item 3;
 * docs/decisions/0210-personal-export-archive-layout.md): every notification to the person, as
 * stored (the listing's readability filter is a view of today, the export is what we hold), a
 * keyset page per call, one statement.
 */
@Injectable()
export class NotificationExportService {
  constructor(private readonly notifications: NotificationsRepository) {}

  async pageOf(
    recipientDid: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<ExportedNotification>> {
    const rows = await this.notifications.exportPage(
      recipientDid,
      after ? exportCursorValues(after) : null,
      limit + 1,
      runner,
    );
    return exportPageOf(rows, limit, (row) => exportCursorOf(row.last_activity_at, row.id), exported);
  }
}

function exported(row: ExportedNotificationRow): ExportedNotification {
  return {
    id: formatEntityId('notification', row.id),
    type: row.type,
    spaceId: row.space_id ? formatEntityId('space', row.space_id) : null,
    audience: row.audience,
    scope: row.scope,
    aggregationType: row.aggregation_type,
    people: row.people,
    itemCount: row.item_count,
    readState: row.read_state,
    firstActivityAt: row.first_activity_at.toISOString(),
    lastActivityAt: row.last_activity_at.toISOString(),
    lastReadAt: row.last_read_at ? row.last_read_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
  };
}
