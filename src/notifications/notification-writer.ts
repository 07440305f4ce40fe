import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newUuid } from '../common/ids/entity-id';
import { NotificationAudience, StoredPerson, StoredPost, StoredScope } from './entities/notification.entity';
import { WRITE_NOTIFICATIONS } from './notification-sql';

/** One activity as its recipients' notifications record it. */
export interface NotificationDraft {
  kind: string;
  spaceId: string;
  audience: NotificationAudience;
  /** Unread notifications of one recipient and group key aggregate. */
  groupKey: string;
  scope: StoredScope;
  aggregationType: 'identity' | 'post';
  /** The person (identity) or post (post) this activity adds to the group. */
  item: StoredPerson | StoredPost;
  /** The post the notification is about (content kinds), else null. */
  postId: string | null;
  at: Date;
}

/**
 * Writes one activity for many recipients in one statement: a new row each, or, while the
 * recipient's notification of the same group is unread, an update of it (the item moves to the
 * front of the group, counted once by its post id or DID in `item_count` while the group keeps it;
 * a group keeps only its most recent posts or people (notification-sql.ts); the preview becomes
 * this activity; lastActivityAt moves forward). Concurrency-safe (`ON CONFLICT` on the unread
 * group index).
 */
@Injectable()
export class NotificationWriter {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async write(recipients: string[], draft: NotificationDraft, manager?: EntityManager): Promise<void> {
    if (recipients.length === 0) return;
    await (manager ?? this.dataSource.manager).query(WRITE_NOTIFICATIONS, [
      recipients.map(() => newUuid()),
      recipients,
      draft.kind,
      draft.spaceId,
      draft.audience,
      draft.groupKey,
      JSON.stringify(draft.scope),
      JSON.stringify(draft.item),
      draft.at,
      draft.aggregationType,
      draft.postId,
    ]);
  }
}
