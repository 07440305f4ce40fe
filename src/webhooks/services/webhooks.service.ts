import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isIP } from 'node:net';
import { DataSource } from 'typeorm';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { conflict, invalidRequest, notFound } from '../../common/errors/api-error';
import { newUuid, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { AppConfig } from '../../config/app-config';
import { isPublicAddress } from '../../infrastructure/outbound/address-guard';
import { SpaceAccessService } from '../../spaces';
import { newSecret, PREVIOUS_SECRET_GRACE_MS } from '../domain/signatures';
import { MEMBERS_ONLY_TYPES } from '../domain/webhook-events';
import {
  CreatedWebhookRecord,
  DeliveryListing,
  DeliveryRecord,
  RotatedSecretRecord,
  WebhookListing,
  WebhookRecord,
} from '../dto/webhook-records.dto';
import { CreateWebhookRequest, UpdateWebhookRequest } from '../dto/webhook-requests.dto';
import { WebhookDelivery } from '../entities/webhook-delivery.entity';
import { Webhook } from '../entities/webhook.entity';
import { WebhooksRepository } from '../webhooks.repository';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookFanoutService } from './webhook-fanout.service';
import { presentDelivery, presentWebhook } from './webhooks.presenter';

/** Newest first: ids are UUIDv7. */
const ORDER: KeysetColumn[] = [{ expression: 'id', direction: 'DESC' }];

/**
 * A space's webhook subscriptions, for its admins (design.md §9's rules: a non-admin member 403, a
 * non-member of a space without a public profile the one 404; docs/decisions/0160-webhook-subscriptions.md).
 */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: WebhooksRepository,
    private readonly access: SpaceAccessService,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly fanout: WebhookFanoutService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  async create(
    principal: RequestPrincipal,
    pathId: string,
    request: CreateWebhookRequest,
  ): Promise<CreatedWebhookRecord> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    this.checkTarget(request.url, request.events, request.includeMembersOnly ?? false);
    const now = this.clock.now();
    const row: Webhook = {
      id: newUuid(),
      spaceId: space.id,
      url: request.url,
      events: request.events,
      description: request.description ?? null,
      includeMembersOnly: request.includeMembersOnly ?? false,
      enabled: true,
      disabledReason: null,
      secret: newSecret(),
      previousSecret: null,
      previousSecretUntil: null,
      failingSince: null,
      createdByDid: principal.did,
      createdAt: now,
      updatedAt: now,
    };
    await this.dataSource.transaction(async (manager) => {
      // The space's row lock makes the count exact against a concurrent create.
      await this.access.lock(manager, space.id);
      if ((await this.repository.countOfSpace(space.id, manager)) >= this.config.WEBHOOKS_PER_SPACE) {
        throw conflict(`A space holds at most ${this.config.WEBHOOKS_PER_SPACE} webhooks`);
      }
      await this.repository.insert(row, manager);
    });
    return { ...presentWebhook(row, now), secret: row.secret };
  }

  async list(
    principal: RequestPrincipal,
    pathId: string,
    query: PaginationQueryDto,
  ): Promise<WebhookListing> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const keyset = {
      listing: 'webhooks',
      columns: ORDER,
      keyOf: (row: Webhook) => [row.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.repository.pageOfSpace(space.id, seek), keyset);
    const now = this.clock.now();
    return {
      items: page.rows.map((row) => presentWebhook(row, now)),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  async get(principal: RequestPrincipal, pathId: string, webhookId: string): Promise<WebhookRecord> {
    return presentWebhook(await this.adminWebhook(principal, pathId, webhookId), this.clock.now());
  }

  async update(
    principal: RequestPrincipal,
    pathId: string,
    webhookId: string,
    request: UpdateWebhookRequest,
  ): Promise<WebhookRecord> {
    const webhook = await this.adminWebhook(principal, pathId, webhookId);
    const next = {
      url: request.url ?? webhook.url,
      events: request.events ?? webhook.events,
      includeMembersOnly: request.includeMembersOnly ?? webhook.includeMembersOnly,
    };
    this.checkTarget(next.url, next.events, next.includeMembersOnly);
    const changes: Partial<Webhook> = { ...next, updatedAt: this.clock.now() };
    if (request.description !== undefined) changes.description = request.description;
    if (request.enabled === true && !webhook.enabled) {
      // Re-enabled: a fresh start, the failure clock stopped.
      Object.assign(changes, { enabled: true, disabledReason: null, failingSince: null });
    }
    await this.dataSource.transaction(async (manager) => {
      await this.repository.update(webhook.id, changes, manager);
      // Disabled by an admin: its pending deliveries fail, as when the service disables it.
      if (request.enabled === false && webhook.enabled) {
        await this.repository.disable(webhook.id, 'admin', changes.updatedAt!, manager);
      }
    });
    if (request.enabled === false && webhook.enabled) {
      Object.assign(changes, { enabled: false, disabledReason: 'admin' });
    }
    return presentWebhook({ ...webhook, ...changes }, this.clock.now());
  }

  async remove(principal: RequestPrincipal, pathId: string, webhookId: string): Promise<void> {
    const webhook = await this.adminWebhook(principal, pathId, webhookId);
    await this.repository.delete(webhook.id);
  }

  /** A new secret; the one it replaces signs beside it for 24 hours (receivers roll over). */
  async rotateSecret(
    principal: RequestPrincipal,
    pathId: string,
    webhookId: string,
  ): Promise<RotatedSecretRecord> {
    const webhook = await this.adminWebhook(principal, pathId, webhookId);
    const now = this.clock.now();
    const until = new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS);
    const secret = newSecret();
    await this.repository.update(webhook.id, {
      secret,
      previousSecret: webhook.secret,
      previousSecretUntil: until,
      updatedAt: now,
    });
    return { secret, previousSecretValidUntil: until.toISOString() };
  }

  /** Sends a `webhook.test` event to this subscription (even when disabled it is refused: 409). */
  async test(principal: RequestPrincipal, pathId: string, webhookId: string): Promise<DeliveryRecord> {
    const webhook = await this.adminWebhook(principal, pathId, webhookId);
    if (!webhook.enabled) throw conflict('The webhook is disabled');
    const delivery = await this.fanout.test(webhook);
    return presentDelivery(delivery);
  }

  async deliveryLog(
    principal: RequestPrincipal,
    pathId: string,
    webhookId: string,
    query: PaginationQueryDto,
  ): Promise<DeliveryListing> {
    const webhook = await this.adminWebhook(principal, pathId, webhookId);
    const keyset = {
      listing: 'webhook-deliveries',
      columns: ORDER,
      keyOf: (row: WebhookDelivery) => [row.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.repository.pageOfWebhook(webhook.id, seek), keyset);
    return {
      items: page.rows.map(presentDelivery),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** Sends a delivery again under its `webhook-id`, from a first attempt (a disabled subscription: 409). */
  async redeliver(
    principal: RequestPrincipal,
    pathId: string,
    webhookId: string,
    deliveryId: string,
  ): Promise<DeliveryRecord> {
    const webhook = await this.adminWebhook(principal, pathId, webhookId);
    const id = parseEntityId('delivery', deliveryId);
    if (!id) throw notFound();
    if (!webhook.enabled) throw conflict('The webhook is disabled');
    const delivery = await this.repository.redeliver(id, webhook.id, this.clock.now());
    if (!delivery) throw notFound();
    await this.deliveries.soon([delivery.id]);
    return presentDelivery(delivery);
  }

  /** A subscription of a space the caller administers; anything else is the one 404. */
  private async adminWebhook(
    principal: RequestPrincipal,
    pathId: string,
    webhookId: string,
  ): Promise<Webhook> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const id = parseEntityId('webhook', webhookId);
    const webhook = id ? await this.repository.ofSpace(id, space.id) : null;
    if (!webhook) throw notFound();
    return webhook;
  }

  /**
   * Rules beyond the DTO's: members' event types need the member view, and a URL naming a private
   * address or `localhost` outright is refused now (a name that resolves to one is refused at
   * connect time by the outbound fetcher; OUTBOUND_ALLOWED_PRIVATE_HOSTS lets tests' receivers in).
   */
  private checkTarget(url: string, events: string[], includeMembersOnly: boolean): void {
    const details: { path: string; message: string }[] = [];
    const needing = events.filter((type) => MEMBERS_ONLY_TYPES.has(type));
    if (needing.length > 0 && !includeMembersOnly) {
      details.push({
        path: 'events',
        message: `${needing.join(', ')} need includeMembersOnly: true`,
      });
    }
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const port = target.port !== '' ? target.port : target.protocol === 'https:' ? '443' : '80';
    const allowed = this.config.outboundAllowedPrivateHosts.some(
      (entry) => entry.trim().toLowerCase() === `${host}:${port}`,
    );
    const privateLiteral =
      (isIP(host) !== 0 && !isPublicAddress(host)) || host === 'localhost' || host.endsWith('.localhost');
    if (privateLiteral && !allowed)
      details.push({ path: 'url', message: 'url must not name a private address' });
    if (details.length > 0) throw invalidRequest('Invalid request', details);
  }
}
