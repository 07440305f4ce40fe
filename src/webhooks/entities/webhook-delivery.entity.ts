import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/**
 * One message to one subscription and its attempts (docs/decisions/0162-webhook-delivery-state-in-postgresql.md):
 * the body is stored as sent, so every retry and a redelivery send the same bytes under the same
 * `webhook-id`; `next_attempt_at` is when a sweep may take it (a lease while an attempt runs).
 */
@Entity({ name: 'webhook_deliveries' })
@Index('idx_webhook_deliveries_webhook', ['webhookId', 'id'])
@Index('uq_webhook_deliveries_message', ['webhookId', 'messageId'], { unique: true })
@Index('idx_webhook_deliveries_due', ['nextAttemptAt'], { where: `"status" = 'pending'` })
export class WebhookDelivery {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'webhook_id', type: 'uuid' })
  @ForeignKey('webhooks', { onDelete: 'CASCADE' })
  webhookId: string;

  /** The `webhook-id` header: one per event, the same on every attempt. */
  @Column({ name: 'message_id', type: 'varchar', length: 64 })
  messageId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 64 })
  eventType: string;

  /** The JSON body exactly as signed and sent. */
  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'varchar', length: 16 })
  status: DeliveryStatus;

  @Column({ type: 'integer' })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', precision: 3, nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 300, nullable: true })
  lastError: string | null;

  @Column({ name: 'last_latency_ms', type: 'integer', nullable: true })
  lastLatencyMs: number | null;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', precision: 3, nullable: true })
  lastAttemptAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
