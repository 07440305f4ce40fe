import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

declare module '../../common/ids/entity-id' {
  interface EntityPrefixes {
    /** `webhook_<32 hex>` on the wire. */
    webhook: true;
    /** `delivery_<32 hex>` on the wire. */
    delivery: true;
  }
}

/** Why a subscription stopped: an admin's PATCH, a 410 from the receiver, 5 days of failures. */
export type WebhookDisabledReason = 'admin' | 'gone' | 'failing';

/**
 * A space's webhook subscription (docs/decisions/0160-webhook-subscriptions.md): where to POST
 * which event types, with its signing secret and, for 24 h after a rotation, the previous one.
 */
@Entity({ name: 'webhooks' })
@Index('idx_webhooks_space', ['spaceId', 'id'])
export class Webhook {
  /** A UUIDv7 (`newUuid()`): time-ordered, so listings page by it. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Event types (WEBHOOK_EVENT_TYPES) delivered. */
  @Column({ type: 'text', array: true })
  events: string[];

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  /** Deliver the member view, and events of subjects only members see. */
  @Column({ name: 'include_members_only', type: 'boolean' })
  includeMembersOnly: boolean;

  @Column({ type: 'boolean' })
  enabled: boolean;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 16, nullable: true })
  disabledReason: WebhookDisabledReason | null;

  /** `whsec_…`: never answered again after the create or rotation that made it. */
  @Column({ type: 'varchar', length: 80 })
  secret: string;

  /** The secret before the last rotation, still signing until `previousSecretUntil`. */
  @Column({ name: 'previous_secret', type: 'varchar', length: 80, nullable: true })
  previousSecret: string | null;

  @Column({ name: 'previous_secret_until', type: 'timestamptz', precision: 3, nullable: true })
  previousSecretUntil: Date | null;

  /** The first failed attempt since the last success; 5 days on, the subscription is disabled. */
  @Column({ name: 'failing_since', type: 'timestamptz', precision: 3, nullable: true })
  failingSince: Date | null;

  @Column({ name: 'created_by_did', type: 'varchar', length: 64 })
  createdByDid: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;
}
