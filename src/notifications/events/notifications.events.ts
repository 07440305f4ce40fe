import type { WrittenNotification } from '../notifications.repository';

/** Domain events of the notifications module (emitted inside the write's transaction). */

/**
 * Notifications were inserted or updated (an aggregation) for their recipients. Told to the live
 * stream after commit only, never for a rollback
 * (docs/decisions/0170-a-live-stream-of-notifications.md).
 */
export class NotificationsWritten {
  constructor(readonly notifications: readonly WrittenNotification[]) {}
}
