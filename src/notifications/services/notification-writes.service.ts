import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { NotificationsWritten } from '../events/notifications.events';
import { NotificationDraft, NotificationsRepository } from '../notifications.repository';
import { NotificationStreamService } from './notification-stream.service';

/**
 * Every notification write, so the live stream hears of each once it is committed and never of
 * one rolled back (docs/decisions/0170-a-live-stream-of-notifications.md): inside a transaction
 * (the fan-outs' batches) the rows are told by a domain event after its commit; a write on its
 * own (one statement, committed when it answers) is told at once.
 */
@Injectable()
export class NotificationWritesService {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly events: DomainEvents,
    private readonly stream: NotificationStreamService,
  ) {}

  async write(recipients: string[], draft: NotificationDraft, manager?: EntityManager): Promise<void> {
    const written = await this.notifications.write(recipients, draft, manager);
    if (written.length === 0) return;
    if (manager?.queryRunner?.isTransactionActive) {
      await this.events.emit(manager, new NotificationsWritten(written));
    } else {
      await this.stream.announce(written);
    }
  }
}
