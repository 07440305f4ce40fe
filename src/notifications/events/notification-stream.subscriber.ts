import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { NotificationStreamService } from '../services/notification-stream.service';
import { NotificationsWritten } from './notifications.events';

/**
 * Tells the live stream of notifications written inside a transaction (the fan-outs' batches of
 * 1,000) once it commits, never after a rollback
 * (docs/decisions/0170-a-live-stream-of-notifications.md).
 */
@Injectable()
export class NotificationStreamSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly stream: NotificationStreamService,
  ) {}

  onModuleInit(): void {
    this.events.afterCommit(NotificationsWritten, (event) => this.stream.announce(event.notifications));
  }
}
