import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { KeysetSeek } from '../common/pagination/keyset';
import { defineStatements } from '../infrastructure/database/statements';
import { DeliveryStatus, WebhookDelivery } from './entities/webhook-delivery.entity';
import { Webhook, WebhookDisabledReason } from './entities/webhook.entity';

const WEBHOOK_COLUMNS =
  'id, space_id, url, events, description, include_members_only, enabled, disabled_reason, secret, ' +
  'previous_secret, previous_secret_until, failing_since, created_by_did, created_at, updated_at';
const DELIVERY_COLUMNS =
  'id, webhook_id, message_id, event_type, body, status, attempts, next_attempt_at, last_status_code, ' +
  'last_error, last_latency_ms, last_attempt_at, created_at';
/** A delivery's columns without its body (the log does not show it). */
const LOG_COLUMNS = DELIVERY_COLUMNS.replace(' body,', " '' AS body,");

/**
 * The webhooks module's fixed SQL (docs/decisions/0131-a-repository-per-module.md), written to
 * docs/queries/webhooks.sql by `npm run build && npm run queries:write`.
 */
export const WEBHOOKS_STATEMENTS = defineStatements('WebhooksRepository', {
  /** A page of a space's subscriptions, newest first ($1 space, $2 rows to read, $3 the cursor's id). */
  pageOfSpace: {
    first: `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE space_id = $1 ORDER BY id DESC LIMIT $2`,
    after: `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE space_id = $1 AND id < $3 ORDER BY id DESC LIMIT $2`,
    before: `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE space_id = $1 AND id > $3 ORDER BY id ASC LIMIT $2`,
  },
  /** One subscription of a space ($1 id, $2 space). */
  ofSpace: `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1 AND space_id = $2`,
  /** How many subscriptions a space holds, counted under its row lock by the create. */
  countOfSpace: 'SELECT count(*)::int AS n FROM webhooks WHERE space_id = $1',
  /** The enabled subscriptions of a space that take an event type ($1 space, $2 type). */
  subscribers: `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE space_id = $1 AND enabled AND $2 = ANY(events) ORDER BY id`,
  /** Disables an enabled subscription ($1 id, $2 reason, $3 now); a row when it took. */
  disable:
    'UPDATE webhooks SET enabled = false, disabled_reason = $2, updated_at = $3 WHERE id = $1 AND enabled RETURNING id',
  /** Fails the pending deliveries of a disabled subscription ($1 id). */
  failPending:
    "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = 'the subscription was disabled' " +
    "WHERE webhook_id = $1 AND status = 'pending'",
  /** A failed attempt starts the failure clock once ($1 id, $2 now); answers when it started. */
  failing:
    'UPDATE webhooks SET failing_since = COALESCE(failing_since, $2) WHERE id = $1 RETURNING failing_since, enabled',
  /** A success stops the failure clock ($1 id). */
  succeeding: 'UPDATE webhooks SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL',
  /** Records one message for many subscriptions, each once (by webhook and message id). */
  insertDeliveries:
    'INSERT INTO webhook_deliveries (id, webhook_id, message_id, event_type, body, status, attempts, next_attempt_at, created_at) ' +
    "SELECT d.id, d.webhook_id, $3, $4, d.body, 'pending', 0, $5, $5 FROM unnest($1::uuid[], $2::uuid[], $6::text[]) AS d(id, webhook_id, body) " +
    'ON CONFLICT (webhook_id, message_id) DO NOTHING RETURNING id',
  /**
   * Takes a due pending delivery of an enabled subscription for one attempt: its next attempt moves
   * to the lease's end, so no other sweep takes it meanwhile and a dead replica's comes back
   * ($1 id, $2 now, $3 lease end).
   */
  claim:
    `UPDATE webhook_deliveries d SET next_attempt_at = $3 FROM webhooks w WHERE d.id = $1 AND d.status = 'pending' ` +
    'AND d.next_attempt_at <= $2 AND w.id = d.webhook_id AND w.enabled RETURNING ' +
    DELIVERY_COLUMNS.split(', ')
      .map((column) => `d.${column}`)
      .join(', ') +
    ', w.space_id, w.created_by_did, w.failing_since, w.url, w.secret, w.previous_secret, w.previous_secret_until',
  /** Due pending deliveries of enabled subscriptions, oldest due first ($1 now, $2 how many). */
  due:
    "SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.enabled WHERE d.status = 'pending' " +
    'AND d.next_attempt_at <= $1 ORDER BY d.next_attempt_at LIMIT $2',
  /**
   * The outcome of one attempt ($1 id, $2 status, $3 next attempt, $4 code, $5 error, $6 latency,
   * $7 when), if the attempt still holds the delivery ($8 its lease end: a replica that outlived its
   * lease, the delivery taken again by another since, records nothing); a retry of a subscription
   * disabled meanwhile (by a parallel attempt) has failed instead.
   */
  recordAttempt:
    "UPDATE webhook_deliveries d SET status = CASE WHEN $2 = 'pending' AND NOT w.enabled THEN 'failed' ELSE $2 END, " +
    'attempts = d.attempts + 1, next_attempt_at = CASE WHEN w.enabled THEN $3::timestamptz END, last_status_code = $4, ' +
    'last_error = $5, last_latency_ms = $6, last_attempt_at = $7 FROM webhooks w ' +
    "WHERE d.id = $1 AND d.status = 'pending' AND d.next_attempt_at = $8 AND w.id = d.webhook_id RETURNING d.id",
  /** A page of a subscription's deliveries, newest first ($1 webhook, $2 rows, $3 the cursor's id). */
  pageOfWebhook: {
    first: `SELECT ${LOG_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2`,
    after: `SELECT ${LOG_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 AND id < $3 ORDER BY id DESC LIMIT $2`,
    before: `SELECT ${LOG_COLUMNS} FROM webhook_deliveries WHERE webhook_id = $1 AND id > $3 ORDER BY id ASC LIMIT $2`,
  },
  /** Sends a delivery again, from its first attempt, under the same message id ($1 id, $2 webhook, $3 now). */
  redeliver:
    "UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $3 WHERE id = $1 AND webhook_id = $2 " +
    `RETURNING ${LOG_COLUMNS}`,
});

interface WebhookRow {
  id: string;
  space_id: string;
  url: string;
  events: string[];
  description: string | null;
  include_members_only: boolean;
  enabled: boolean;
  disabled_reason: WebhookDisabledReason | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  failing_since: Date | null;
  created_by_did: string;
  created_at: Date;
  updated_at: Date;
}

interface DeliveryRow {
  id: string;
  webhook_id: string;
  message_id: string;
  event_type: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  last_attempt_at: Date | null;
  created_at: Date;
}

/** A delivery taken for an attempt, with what its subscription signs and sends with. */
export interface ClaimedDelivery extends WebhookDelivery {
  spaceId: string;
  createdByDid: string;
  /** The subscription's failure clock when the attempt began (a success stops it). */
  failingSince: Date | null;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

const webhookOf = (row: WebhookRow): Webhook => ({
  id: row.id,
  spaceId: row.space_id,
  url: row.url,
  events: row.events,
  description: row.description,
  includeMembersOnly: row.include_members_only,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  secret: row.secret,
  previousSecret: row.previous_secret,
  previousSecretUntil: row.previous_secret_until,
  failingSince: row.failing_since,
  createdByDid: row.created_by_did,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const deliveryOf = (row: DeliveryRow): WebhookDelivery => ({
  id: row.id,
  webhookId: row.webhook_id,
  messageId: row.message_id,
  eventType: row.event_type,
  body: row.body,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at,
  lastStatusCode: row.last_status_code,
  lastError: row.last_error,
  lastLatencyMs: row.last_latency_ms,
  lastAttemptAt: row.last_attempt_at,
  createdAt: row.created_at,
});

/** One message's delivery to one subscription, before it is stored. */
export interface NewDelivery {
  id: string;
  webhookId: string;
  body: string;
}

/** What an attempt left: the delivery's new state. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  at: Date;
}

/** Every statement on `webhooks` and `webhook_deliveries`; methods take the caller's transaction last. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One row by its key: TypeORM's repository API (record 0131). */
  async insert(row: Webhook, runner: EntityManager = this.dataSource.manager): Promise<void> {
    await runner.insert(Webhook, row);
  }

  /** Changes one subscription by its key. */
  async update(
    id: string,
    changes: Partial<Omit<Webhook, 'id' | 'spaceId'>>,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.update(Webhook, { id }, changes);
  }

  /** Deletes one subscription by its key (its deliveries go with it: ON DELETE CASCADE). */
  async delete(id: string, runner: EntityManager = this.dataSource.manager): Promise<void> {
    await runner.delete(Webhook, { id });
  }

  async countOfSpace(spaceId: string, runner: EntityManager = this.dataSource.manager): Promise<number> {
    const [row] = await runner.query<{ n: number }[]>(WEBHOOKS_STATEMENTS.countOfSpace, [spaceId]);
    return row.n;
  }

  async ofSpace(
    id: string,
    spaceId: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Webhook | null> {
    const [row] = await runner.query<WebhookRow[]>(WEBHOOKS_STATEMENTS.ofSpace, [id, spaceId]);
    return row ? webhookOf(row) : null;
  }

  /** The rows of a keyset page (common/pagination/keyset.ts) of a space's subscriptions. */
  async pageOfSpace(
    spaceId: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Webhook[]> {
    const { pageOfSpace } = WEBHOOKS_STATEMENTS;
    const rows = seek.values
      ? await runner.query<WebhookRow[]>(seek.backward ? pageOfSpace.before : pageOfSpace.after, [
          spaceId,
          seek.take,
          seek.values[0],
        ])
      : await runner.query<WebhookRow[]>(pageOfSpace.first, [spaceId, seek.take]);
    return rows.map(webhookOf);
  }

  async subscribers(
    spaceId: string,
    type: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Webhook[]> {
    const rows = await runner.query<WebhookRow[]>(WEBHOOKS_STATEMENTS.subscribers, [spaceId, type]);
    return rows.map(webhookOf);
  }

  /** Disables a subscription and fails its pending deliveries (two statements: run in a transaction). */
  async disable(
    id: string,
    reason: WebhookDisabledReason,
    now: Date,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const [rows] = await runner.query<[{ id: string }[], number]>(WEBHOOKS_STATEMENTS.disable, [
      id,
      reason,
      now,
    ]);
    await runner.query(WEBHOOKS_STATEMENTS.failPending, [id]);
    return rows.length > 0;
  }

  /** Starts the failure clock if it is not running; when it started, or null for a subscription gone. */
  async failing(
    id: string,
    now: Date,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Date | null> {
    const [[row]] = await runner.query<[{ failing_since: Date; enabled: boolean }[], number]>(
      WEBHOOKS_STATEMENTS.failing,
      [id, now],
    );
    return row?.enabled ? row.failing_since : null;
  }

  async succeeding(id: string, runner: EntityManager = this.dataSource.manager): Promise<void> {
    await runner.query(WEBHOOKS_STATEMENTS.succeeding, [id]);
  }

  /** Stores one message for many subscriptions; the ids actually stored (a repeat stores none). */
  async insertDeliveries(
    messageId: string,
    eventType: string,
    deliveries: NewDelivery[],
    now: Date,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    if (deliveries.length === 0) return [];
    const rows = await runner.query<{ id: string }[]>(WEBHOOKS_STATEMENTS.insertDeliveries, [
      deliveries.map((delivery) => delivery.id),
      deliveries.map((delivery) => delivery.webhookId),
      messageId,
      eventType,
      now,
      deliveries.map((delivery) => delivery.body),
    ]);
    return rows.map((row) => row.id);
  }

  async claim(
    id: string,
    now: Date,
    leaseUntil: Date,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<ClaimedDelivery | null> {
    const [[row]] = await runner.query<
      [
        (DeliveryRow & {
          space_id: string;
          created_by_did: string;
          failing_since: Date | null;
          url: string;
          secret: string;
          previous_secret: string | null;
          previous_secret_until: Date | null;
        })[],
        number,
      ]
    >(WEBHOOKS_STATEMENTS.claim, [id, now, leaseUntil]);
    if (!row) return null;
    return {
      ...deliveryOf(row),
      spaceId: row.space_id,
      createdByDid: row.created_by_did,
      failingSince: row.failing_since,
      url: row.url,
      secret: row.secret,
      previousSecret: row.previous_secret,
      previousSecretUntil: row.previous_secret_until,
    };
  }

  async due(now: Date, limit: number, runner: EntityManager = this.dataSource.manager): Promise<string[]> {
    const rows = await runner.query<{ id: string }[]>(WEBHOOKS_STATEMENTS.due, [now, limit]);
    return rows.map((row) => row.id);
  }

  /** Records an attempt's outcome; false when the attempt no longer held the delivery. */
  async recordAttempt(
    id: string,
    leaseUntil: Date,
    outcome: AttemptOutcome,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const [rows] = await runner.query<[{ id: string }[], number]>(WEBHOOKS_STATEMENTS.recordAttempt, [
      id,
      outcome.status,
      outcome.nextAttemptAt,
      outcome.statusCode,
      outcome.error?.slice(0, 300) ?? null,
      outcome.latencyMs,
      outcome.at,
      leaseUntil,
    ]);
    return rows.length > 0;
  }

  async pageOfWebhook(
    webhookId: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<WebhookDelivery[]> {
    const { pageOfWebhook } = WEBHOOKS_STATEMENTS;
    const rows = seek.values
      ? await runner.query<DeliveryRow[]>(seek.backward ? pageOfWebhook.before : pageOfWebhook.after, [
          webhookId,
          seek.take,
          seek.values[0],
        ])
      : await runner.query<DeliveryRow[]>(pageOfWebhook.first, [webhookId, seek.take]);
    return rows.map(deliveryOf);
  }

  async redeliver(
    id: string,
    webhookId: string,
    now: Date,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<WebhookDelivery | null> {
    const [[row]] = await runner.query<[DeliveryRow[], number]>(WEBHOOKS_STATEMENTS.redeliver, [
      id,
      webhookId,
      now,
    ]);
    return row ? deliveryOf(row) : null;
  }
}
