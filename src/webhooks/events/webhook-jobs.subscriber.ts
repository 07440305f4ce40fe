import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { JobQueue } from '../../infrastructure/jobs/job-queue';
import type { WebhookOccurrence } from '../domain/webhook-events';
import {
  DeliverJob,
  WEBHOOK_DELIVER,
  WEBHOOK_SWEEP,
  WebhookDeliveriesService,
} from '../services/webhook-deliveries.service';
import { WEBHOOK_FANOUT, WebhookFanoutService } from '../services/webhook-fanout.service';

/**
 * The webhooks module's job kinds (docs/decisions/0162-webhook-delivery-state-in-postgresql.md):
 * `webhooks.fanout` (recorded in the job outbox by the write), `webhooks.deliver` (one attempt;
 * its outcome is the delivery row's, so the job itself never retries), and the repeating
 * `webhooks.sweep` every WEBHOOK_SWEEP_MS (retries when due, and deliveries a lost job or a dead
 * replica left behind once their lease is over).
 */
@Injectable()
export class WebhookJobsSubscriber implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly outbox: JobOutbox,
    private readonly fanout: WebhookFanoutService,
    private readonly deliveries: WebhookDeliveriesService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // A few fan-outs at a time per process: a burst of writes must not take the pool from requests.
    this.outbox.handle<WebhookOccurrence>(WEBHOOK_FANOUT, (occurrence) => this.fanout.fanout(occurrence), {
      concurrency: 4,
    });
    this.jobs.handle<DeliverJob>(WEBHOOK_DELIVER, (job) => this.deliveries.attempt(job.deliveryId), {
      attempts: 1,
      concurrency: 8,
    });
    this.jobs.handle(WEBHOOK_SWEEP, async () => void (await this.deliveries.sweep()), { attempts: 1 });
    void this.jobs.every(WEBHOOK_SWEEP, this.config.WEBHOOK_SWEEP_MS);
  }
}
