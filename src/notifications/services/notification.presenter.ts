import { Injectable } from '@nestjs/common';
import { formatEntityId } from '../../common/ids/entity-id';
import { shownItems } from '../domain/notification-titles';
import { NotificationRecord } from '../dto/notification-records.dto';
import { VisibleNotification } from '../notifications.repository';

/** People shown in an aggregation (the most recent ones); `totalCount` counts them all. */
export const AGGREGATION_SAMPLE = 5;

/** Maps visible notifications to the wire (the Notification record). */
@Injectable()
export class NotificationPresenter {
  /** The record of a visible notification; `readable`: the posts its recipient reads now. */
  record(
    { notification: row, space }: VisibleNotification,
    readable: ReadonlySet<string>,
  ): NotificationRecord {
    return {
      id: formatEntityId('notification', row.id),
      type: row.type,
      space: { id: formatEntityId('space', space.id), did: space.did, displayName: space.displayName },
      readState: row.readState,
      scope: row.scope,
      aggregation:
        Math.max(row.itemCount, row.people.length) > 1
          ? {
              type: row.aggregationType,
              items: shownItems(row, readable).slice(0, AGGREGATION_SAMPLE),
              totalCount: Math.max(row.itemCount, row.people.length),
            }
          : null,
      firstActivityAt: row.firstActivityAt.toISOString(),
      lastActivityAt: row.lastActivityAt.toISOString(),
      lastReadAt: row.lastReadAt ? row.lastReadAt.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
    };
  }
}
