import { formatEntityId } from '../../common/ids/entity-id';
import { DeliveryRecord, WebhookRecord } from '../dto/webhook-records.dto';
import { WebhookDelivery } from '../entities/webhook-delivery.entity';
import { Webhook } from '../entities/webhook.entity';

const iso = (at: Date | null): string | null => (at ? at.toISOString() : null);

/** A subscription as its admins see it: never its secrets (a create or rotation answers those once). */
export function presentWebhook(row: Webhook, now: Date): WebhookRecord {
  const graceOn =
    row.previousSecret !== null && row.previousSecretUntil !== null && row.previousSecretUntil > now;
  return {
    id: formatEntityId('webhook', row.id),
    url: row.url,
    events: row.events,
    description: row.description,
    includeMembersOnly: row.includeMembersOnly,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    previousSecretValidUntil: graceOn ? iso(row.previousSecretUntil) : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One line of the delivery log. */
export function presentDelivery(row: WebhookDelivery): DeliveryRecord {
  return {
    id: formatEntityId('delivery', row.id),
    eventId: row.messageId,
    type: row.eventType,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    latencyMs: row.lastLatencyMs,
    lastAttemptAt: iso(row.lastAttemptAt),
    createdAt: row.createdAt.toISOString(),
  };
}
