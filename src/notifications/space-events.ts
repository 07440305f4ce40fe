import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
} from 'typeorm';
import { NotificationsService } from './notifications.service';

/** What the spaces module reports; each becomes notifications of its kind (`NotificationsService`). */
export type SpaceEvent =
  | { kind: 'notify.member.joined'; spaceId: string; memberDid: string }
  | { kind: 'notify.member.role_changed'; spaceId: string; memberDid: string; role: string; byDid: string }
  | {
      kind: 'notify.member.kicked' | 'notify.member.banned';
      spaceId: string;
      memberDid: string;
      byDid: string;
    }
  | { kind: 'notify.application.submitted'; spaceId: string; applicantDid: string; applicationId: string }
  | {
      kind: 'notify.application.approved' | 'notify.application.rejected';
      spaceId: string;
      applicantDid: string;
      applicationId: string;
      byDid: string;
    };

/**
 * The one hook the spaces module calls: `publish(manager, event)` inside its transaction. Events
 * wait on the transaction's query runner and are delivered only after it commits (a rolled-back
 * write notifies no one); delivery runs before the request answers, and a delivery failure is
 * logged, never turned into a failure of the committed write.
 */
@Injectable()
export class SpaceEvents implements EntitySubscriberInterface, OnModuleInit {
  private readonly logger = new Logger(SpaceEvents.name);
  private readonly pending = new WeakMap<QueryRunner, SpaceEvent[]>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly notifications: NotificationsService,
  ) {}

  onModuleInit(): void {
    this.dataSource.subscribers.push(this);
  }

  publish(manager: EntityManager, event: SpaceEvent): void {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive) throw new Error('SpaceEvents.publish outside a transaction');
    const events = this.pending.get(runner) ?? [];
    events.push(event);
    this.pending.set(runner, events);
  }

  async afterTransactionCommit(event: TransactionCommitEvent): Promise<void> {
    const runner = event.queryRunner;
    // A released savepoint is not the commit: keep the events until the outermost transaction ends.
    if (runner.isTransactionActive) return;
    const events = this.pending.get(runner);
    if (!events) return;
    this.pending.delete(runner);
    for (const spaceEvent of events) {
      try {
        await this.notifications.record(spaceEvent);
      } catch (error) {
        this.logger.error({ err: error, kind: spaceEvent.kind }, 'notification delivery failed');
      }
    }
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    if (!event.queryRunner.isTransactionActive) this.pending.delete(event.queryRunner);
  }
}
