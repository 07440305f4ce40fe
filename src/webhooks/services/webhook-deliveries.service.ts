import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { JobQueue } from '../../infrastructure/jobs/job-queue';
import { OutboundError, OutboundFetcher } from '../../infrastructure/outbound/outbound-fetcher';
import { OriginIdentities } from '../../protocol';
import {
  asymmetricSignature,
  FAILING_DISABLES_AFTER_MS,
  RETRY_SCHEDULE_MS,
  signedContent,
  symmetricSignature,
} from '../domain/signatures';
import { WebhookDisabled } from '../events/webhook.events';
import { AttemptOutcome, ClaimedDelivery, WebhooksRepository } from '../webhooks.repository';

/** The job kind of one delivery attempt (its data: the delivery id). */
export const WEBHOOK_DELIVER = 'webhooks.deliver';
/** The repeating sweep of due deliveries: retries, and whatever a lost job or a dead replica left. */
export const WEBHOOK_SWEEP = 'webhooks.sweep';
/** Deliveries a sweep takes at once, and attempts it runs side by side. */
const SWEEP_BATCH = 100;
const SWEEP_PARALLEL = 16;
/** Bytes of a receiver's answer read (only its status matters). */
const ANSWER_BYTES = 1024;

export interface DeliverJob {
  deliveryId: string;
}

/**
 * Delivery attempts (docs/decisions/0162-webhook-delivery-state-in-postgresql.md,
 * 0163-webhook-signatures.md, 0164-webhook-retries-and-disabling.md): a delivery's state is its
 * row; an attempt takes it with a lease (so two replicas never send it at once and a dead
 * replica's comes back when the lease ends), POSTs the stored body with Standard Webhooks headers
 * through the guarded outbound fetcher, and records the outcome: 2xx delivered; 410 disables the
 * subscription at once; anything else is retried on the specification's schedule, and a
 * subscription failing for 5 days is disabled (its admins are notified through `WebhookDisabled`).
 */
@Injectable()
export class WebhookDeliveriesService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('WebhookDeliveries');
  /** Set on shutdown: the sweep takes no further batch (what is left is due for the next process). */
  private stopping = false;
  private readonly fetcher: OutboundFetcher;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: WebhooksRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly origin: OriginIdentities,
    private readonly events: DomainEvents,
  ) {
    // The one guarded fetcher's class and guard; deliveries to one receiver may run side by side.
    this.fetcher = new OutboundFetcher({
      allowedPrivateHosts: config.outboundAllowedPrivateHosts,
      publicBaseUrl: config.publicBaseUrl,
      hostConcurrency: 8,
      hostIntervalMs: 0,
    });
  }

  /** Hands stored deliveries to the queue; one the queue loses is the sweep's. */
  async soon(deliveryIds: readonly string[]): Promise<void> {
    await Promise.all(
      deliveryIds.map((deliveryId) =>
        this.jobs
          .add<DeliverJob>(
            WEBHOOK_DELIVER,
            { deliveryId },
            { jobId: `webhook-delivery.${deliveryId}.${Date.now()}` },
          )
          .catch((error: Error) =>
            this.logger.warn(`delivery ${deliveryId} left to the sweep: ${error.message}`),
          ),
      ),
    );
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
  }

  /** Attempts what is due, batch after batch (until shutdown); how many it took. */
  async sweep(): Promise<number> {
    let total = 0;
    while (!this.stopping) {
      const due = await this.repository.due(this.clock.now(), SWEEP_BATCH);
      for (let start = 0; start < due.length && !this.stopping; start += SWEEP_PARALLEL) {
        await Promise.all(due.slice(start, start + SWEEP_PARALLEL).map((id) => this.attempt(id)));
      }
      total += due.length;
      if (due.length < SWEEP_BATCH) break;
    }
    return total;
  }

  /** One attempt of a delivery, if it is due and nobody holds it; else nothing. */
  async attempt(deliveryId: string): Promise<void> {
    const now = this.clock.now();
    const leaseUntil = new Date(now.getTime() + this.config.WEBHOOK_LEASE_MS);
    const delivery = await this.repository.claim(deliveryId, now, leaseUntil);
    if (!delivery) return;
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const answer = await this.fetcher.get({
        url: delivery.url,
        method: 'POST',
        body: Buffer.from(delivery.body, 'utf8'),
        headers: { 'content-type': 'application/json', ...this.headersOf(delivery, now) },
        maxBytes: ANSWER_BYTES,
        overflow: 'truncate',
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        maxRedirects: 0,
        accept: '*/*',
        purpose: 'webhook',
        acceptAnyStatus: true,
      });
      statusCode = answer.status;
      if (statusCode < 200 || statusCode > 299) error = `answered ${statusCode}`;
    } catch (failure) {
      error =
        failure instanceof OutboundError
          ? `${failure.failure}: ${failure.message}`
          : (failure as Error).message;
    }
    const latencyMs = Date.now() - started;
    await this.settle(delivery, leaseUntil, statusCode, error, latencyMs);
  }

  /** The Standard Webhooks headers of one attempt, signed now. */
  headersOf(
    delivery: Pick<
      ClaimedDelivery,
      'messageId' | 'body' | 'secret' | 'previousSecret' | 'previousSecretUntil'
    >,
    now: Date,
  ): Record<string, string> {
    const timestamp = Math.floor(now.getTime() / 1000);
    const content = signedContent(delivery.messageId, timestamp, delivery.body);
    const signatures = [symmetricSignature(delivery.secret, content)];
    if (delivery.previousSecret && delivery.previousSecretUntil && delivery.previousSecretUntil > now) {
      signatures.push(symmetricSignature(delivery.previousSecret, content));
    }
    signatures.push(asymmetricSignature(this.origin.signAsOrigin(content).signature));
    return {
      'webhook-id': delivery.messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatures.join(' '),
    };
  }

  private async settle(
    delivery: ClaimedDelivery,
    leaseUntil: Date,
    statusCode: number | null,
    error: string | null,
    latencyMs: number,
  ): Promise<void> {
    const at = this.clock.now();
    const outcome: AttemptOutcome = {
      status: 'succeeded',
      nextAttemptAt: null,
      statusCode,
      error,
      latencyMs,
      at,
    };
    // An attempt that lost its lease (taken again by a sweep) leaves the outcome to the newer one.
    if (error === null) {
      // The failure clock is stopped only when it ran (no statement on the common path).
      const held = await this.repository.recordAttempt(delivery.id, leaseUntil, outcome);
      if (held && delivery.failingSince) await this.repository.succeeding(delivery.webhookId);
      return;
    }
    if (statusCode === 410) {
      if (await this.repository.recordAttempt(delivery.id, leaseUntil, { ...outcome, status: 'failed' })) {
        await this.disable(delivery, 'gone', at);
      }
      return;
    }
    const pause = RETRY_SCHEDULE_MS[delivery.attempts];
    const held = await this.repository.recordAttempt(delivery.id, leaseUntil, {
      ...outcome,
      status: pause === undefined ? 'failed' : 'pending',
      nextAttemptAt: pause === undefined ? null : new Date(at.getTime() + pause),
    });
    if (!held) return;
    const since = await this.repository.failing(delivery.webhookId, at);
    if (since && at.getTime() - since.getTime() >= FAILING_DISABLES_AFTER_MS) {
      await this.disable(delivery, 'failing', at);
    }
  }

  private async disable(delivery: ClaimedDelivery, reason: 'gone' | 'failing', at: Date): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const disabled = await this.repository.disable(delivery.webhookId, reason, at, manager);
      if (!disabled) return;
      await this.events.emit(
        manager,
        new WebhookDisabled(
          delivery.spaceId,
          delivery.webhookId,
          delivery.url,
          reason,
          delivery.createdByDid,
        ),
      );
    });
    this.logger.log(`webhook ${delivery.webhookId} disabled (${reason})`);
  }
}
