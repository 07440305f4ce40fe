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

/** An event type: the producer's class; consumers subscribe to the class, never to a string. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EventType<E extends object> = abstract new (...args: any[]) => E;

type WithinTransaction = (event: object, manager: EntityManager) => Promise<void>;
type Committed = (event: object) => Promise<void>;

/**
 * The domain event bus. A producer emits inside its transaction; two kinds of subscribers:
 * - `withinTransaction`: runs at once on the producer's manager (a counter kept by its owner), so a
 *   failure rolls the whole write back;
 * - `afterCommit`: runs after the outermost transaction commits and is dropped on rollback
 *   (notifications, chains). It runs before the request answers; a failure is logged, never turned
 *   into a failure of the committed write.
 */
@Injectable()
export class DomainEvents implements EntitySubscriberInterface, OnModuleInit {
  private readonly logger = new Logger(DomainEvents.name);
  private readonly withinTransactionHandlers = new Map<EventType<object>, WithinTransaction[]>();
  private readonly afterCommitHandlers = new Map<EventType<object>, Committed[]>();
  private readonly pending = new WeakMap<QueryRunner, object[]>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    this.dataSource.subscribers.push(this);
  }

  withinTransaction<E extends object>(
    type: EventType<E>,
    handler: (event: E, manager: EntityManager) => Promise<void>,
  ): void {
    add(this.withinTransactionHandlers, type, handler as WithinTransaction);
  }

  afterCommit<E extends object>(type: EventType<E>, handler: (event: E) => Promise<void>): void {
    add(this.afterCommitHandlers, type, handler as Committed);
  }

  /** Emits `event` inside the transaction of `manager` (outside one is a programming error). */
  async emit(manager: EntityManager, event: object): Promise<void> {
    const runner = manager.queryRunner;
    if (!runner?.isTransactionActive)
      throw new Error(`${event.constructor.name} emitted outside a transaction`);
    for (const handler of this.withinTransactionHandlers.get(typeOf(event)) ?? []) {
      await handler(event, manager);
    }
    if (!this.afterCommitHandlers.has(typeOf(event))) return;
    const events = this.pending.get(runner) ?? [];
    events.push(event);
    this.pending.set(runner, events);
  }

  afterTransactionCommit(commit: TransactionCommitEvent): void {
    const runner = commit.queryRunner;
    // A released savepoint is not the commit: keep the events until the outermost transaction ends.
    if (runner.isTransactionActive) return;
    const events = this.pending.get(runner);
    if (!events) return;
    this.pending.delete(runner);
    // Delivered once the connection is back in the pool (still before the transaction's caller
    // goes on): TypeORM calls this hook before releasing it, and handlers that query would
    // otherwise each hold one connection while waiting for another, which exhausts the pool
    // under concurrent writes (seen by the bench: every comment create hung).
    const release = runner.release.bind(runner);
    runner.release = async () => {
      runner.release = release;
      try {
        await release();
      } finally {
        await this.deliver(events);
      }
    };
  }

  private async deliver(events: object[]): Promise<void> {
    for (const event of events) {
      for (const handler of this.afterCommitHandlers.get(typeOf(event)) ?? []) {
        try {
          await handler(event);
        } catch (error) {
          this.logger.error({ err: error, event: event.constructor.name }, 'event delivery failed');
        }
      }
    }
  }

  afterTransactionRollback(rollback: TransactionRollbackEvent): void {
    if (!rollback.queryRunner.isTransactionActive) this.pending.delete(rollback.queryRunner);
  }
}

function typeOf(event: object): EventType<object> {
  return event.constructor as EventType<object>;
}

function add<H>(handlers: Map<EventType<object>, H[]>, type: EventType<object>, handler: H): void {
  handlers.set(type, [...(handlers.get(type) ?? []), handler]);
}
