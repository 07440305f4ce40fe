/**
 * The public API of the `notifications` module: what other modules may import (docs/architecture.md
 * "Module shape"): its part of an account's erasure.
 */
export { NotificationErasureService } from './services/notification-erasure.service';
export { NotificationsModule } from './notifications.module';
export { ExportedNotification, NotificationExportService } from './services/notification-export.service';
