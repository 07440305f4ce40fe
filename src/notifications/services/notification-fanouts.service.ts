import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { NotificationsRepository } from '../notifications.repository';

/** Recipients written per transaction. */
export const FANOUT_BATCH = 1000;

/**
 * Between two batches a fan-out rests nine times as long as the last batch took, so a large one
 * uses at most about a tenth of one database connection and requests keep the rest of the
 * machine (docs/decisions/0049-content-notifications.md).
 */
const REST_PER_BATCH = 9;

/**
 * Writes the next batch: the recipients after `afterDid` (DID order, null: from the first), at most
 * FANOUT_BATCH, told in `manager`'s transaction. Answers the recipients it took.
 */
export type FanoutStep = (manager: EntityManager, afterDid: string | null) => Promise<string[]>;

/**
 * A background fan-out of one activity to many recipients (design.md §14: a write's latency does
 * not grow with the space), shared by post announcements and joins. Recipients are taken in DID
 * order, FANOUT_BATCH per transaction, and how far it came is recorded in `notification_fanouts`
 * in the same transaction: a retried job resumes after the last recipient written and a finished
 * one does nothing, so each recipient is told once (idempotent on retry).
 */
@Injectable()
export class NotificationFanoutsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly notifications: NotificationsRepository,
    private readonly clock: Clock,
  ) {}

  /** Runs the fan-out `key` to its end (or resumes it), one batch per `step`. */
  async run(key: string, step: FanoutStep): Promise<void> {
    await this.notifications.beginFanout(key);
    let finished = false;
    while (!finished) {
      const started = Date.now();
      finished = await this.dataSource.transaction(async (manager) => {
        const progress = await this.notifications.fanoutProgress(key, manager);
        if (!progress || progress.done_at) return true;
        const batch = await step(manager, progress.after_did);
        const done = batch.length < FANOUT_BATCH;
        await this.notifications.advanceFanout(
          key,
          batch.at(-1) ?? progress.after_did,
          done ? this.clock.now() : null,
          manager,
        );
        return done;
      });
      if (!finished) await rest((Date.now() - started) * REST_PER_BATCH);
    }
  }
}

const rest = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
