import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { formatEntityId, newUuid } from '../../common/ids/entity-id';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { PostCardsService, PostReadabilityService } from '../../posts';
import { SpaceDirectoryService } from '../../spaces';
import { payloadBody, scrubbed } from '../domain/payloads';
import { MEMBERS_ONLY_TYPES, WebhookEventType, WebhookOccurrence } from '../domain/webhook-events';
import { WebhookDelivery } from '../entities/webhook-delivery.entity';
import { Webhook } from '../entities/webhook.entity';
import { WebhooksRepository } from '../webhooks.repository';
import { WebhookDeliveriesService } from './webhook-deliveries.service';

/** The job kind that turns one committed occurrence into deliveries (recorded in the write's transaction). */
export const WEBHOOK_FANOUT = 'webhooks.fanout';

/** A view of the subject: the anonymous reader's, or a member's (the subscription creator's). */
type View = { kind: 'public' } | { kind: 'member'; did: string };

/**
 * From a committed write to stored deliveries (docs/decisions/0162-webhook-delivery-state-in-postgresql.md):
 * the write records one `webhooks.fanout` job in its own transaction (one statement, whatever the
 * number of subscriptions; nothing for a rolled-back write), and the job, outside the request,
 * finds the subscriptions, renders each view of the subject once, and stores one delivery per
 * subscription before handing them to the delivery job.
 */
@Injectable()
export class WebhookFanoutService {
  constructor(
    private readonly outbox: JobOutbox,
    private readonly repository: WebhooksRepository,
    private readonly clock: Clock,
    private readonly cards: PostCardsService,
    private readonly readability: PostReadabilityService,
    private readonly directory: SpaceDirectoryService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  /** Records the occurrence in the producer's transaction (one statement). */
  async record(
    manager: EntityManager,
    type: WebhookEventType,
    spaceId: string,
    subject: WebhookOccurrence['subject'],
  ): Promise<void> {
    const id = newUuid();
    const occurrence: WebhookOccurrence = {
      messageId: `msg_${id.replace(/-/g, '')}`,
      type,
      spaceId,
      timestamp: this.clock.now().toISOString(),
      subject,
    };
    await this.outbox.record(manager, WEBHOOK_FANOUT, occurrence, { jobId: `webhook-fanout.${id}` });
  }

  /** The fan-out job: idempotent (a delivery is stored once per subscription and message id). */
  async fanout(occurrence: WebhookOccurrence): Promise<void> {
    const subscribers = await this.repository.subscribers(occurrence.spaceId, occurrence.type);
    if (subscribers.length === 0) return;
    const views = new Map<string, Promise<Record<string, unknown> | null>>();
    const dataFor = (webhook: Webhook) => {
      const view: View = webhook.includeMembersOnly
        ? { kind: 'member', did: webhook.createdByDid }
        : { kind: 'public' };
      const key = view.kind === 'public' ? 'public' : `member:${view.did}`;
      if (!views.has(key)) views.set(key, this.dataOf(occurrence, view));
      return views.get(key)!;
    };
    const rows: { id: string; webhookId: string; body: string }[] = [];
    for (const webhook of subscribers) {
      if (MEMBERS_ONLY_TYPES.has(occurrence.type) && !webhook.includeMembersOnly) continue;
      const data = await dataFor(webhook);
      if (data === null) continue;
      const body = payloadBody({ type: occurrence.type, timestamp: occurrence.timestamp, data });
      rows.push({ id: newUuid(), webhookId: webhook.id, body });
    }
    const stored = await this.repository.insertDeliveries(
      occurrence.messageId,
      occurrence.type,
      rows,
      this.clock.now(),
    );
    await this.deliveries.soon(stored);
  }

  /** A `webhook.test` message to one subscription, stored and handed on; the stored delivery. */
  async test(webhook: Webhook): Promise<WebhookDelivery> {
    const id = newUuid();
    const messageId = `msg_${id.replace(/-/g, '')}`;
    const now = this.clock.now();
    const body = payloadBody({
      type: 'webhook.test',
      timestamp: now.toISOString(),
      data: {
        webhook: { id: formatEntityId('webhook', webhook.id) },
        space: { id: formatEntityId('space', webhook.spaceId) },
      },
    });
    const deliveryId = newUuid();
    await this.repository.insertDeliveries(
      messageId,
      'webhook.test',
      [{ id: deliveryId, webhookId: webhook.id, body }],
      now,
    );
    await this.deliveries.soon([deliveryId]);
    return {
      id: deliveryId,
      webhookId: webhook.id,
      messageId,
      eventType: 'webhook.test',
      body,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: now,
      lastStatusCode: null,
      lastError: null,
      lastLatencyMs: null,
      lastAttemptAt: null,
      createdAt: now,
    };
  }

  /**
   * The `data` of an occurrence in one view, or null when that view does not see the subject
   * (docs/decisions/0161-webhook-events-and-payloads.md): posts and comments carry the post's card
   * as the view reads it (none: not delivered), deletions and members' events only ids.
   */
  private async dataOf(occurrence: WebhookOccurrence, view: View): Promise<Record<string, unknown> | null> {
    const { subject } = occurrence;
    const space = { id: formatEntityId('space', occurrence.spaceId) };
    const reader = view.kind === 'public' ? null : view.did;
    switch (occurrence.type) {
      case 'post.created':
      case 'post.updated': {
        const [card] = await this.cards.cardsFor(reader, [subject.postId!]);
        return card ? { space, post: scrubbed(card) } : null;
      }
      case 'post.deleted': {
        // Told only to a view that read the topic it was in.
        const topics = await this.readability.readableTopicIds(reader, [occurrence.spaceId]);
        return topics.includes(subject.topicId!)
          ? { space, post: { id: formatEntityId('post', subject.postId!) } }
          : null;
      }
      case 'comment.created': {
        const [card] = await this.cards.cardsFor(reader, [subject.postId!]);
        if (!card) return null;
        return {
          space,
          comment: { id: formatEntityId('comment', subject.commentId!) },
          post: scrubbed(card),
        };
      }
      case 'comment.deleted': {
        const [card] = await this.cards.cardsFor(reader, [subject.postId!]);
        if (!card) return null;
        return {
          space,
          comment: { id: formatEntityId('comment', subject.commentId!) },
          post: { id: formatEntityId('post', subject.postId!) },
        };
      }
      case 'member.joined':
      case 'member.left':
      case 'member.banned':
        return { space, member: { did: subject.memberDid! } };
      case 'application.submitted':
      case 'application.approved':
      case 'application.rejected':
        return {
          space,
          application: { id: formatEntityId('application', subject.applicationId!) },
          applicant: { did: subject.memberDid! },
        };
      case 'event.created':
      case 'event.updated':
      case 'event.canceled': {
        // A members-only event is the member view's; the public one needs a public space too.
        if (subject.visibility !== 'public' && view.kind === 'public') return null;
        if (view.kind === 'public' && !(await this.spaceIsPublic(occurrence.spaceId))) return null;
        return {
          space,
          event: { id: formatEntityId('evt', subject.eventId!), visibility: subject.visibility },
        };
      }
      case 'product.published':
      case 'release.published':
        // The storefront is public where the space's profile is.
        if (view.kind === 'public' && !(await this.spaceIsPublic(occurrence.spaceId))) return null;
        return subject.productId
          ? { space, product: { id: formatEntityId('product', subject.productId) } }
          : { space, release: { id: formatEntityId('release', subject.releaseId!) } };
      default:
        return { space };
    }
  }

  private async spaceIsPublic(spaceId: string): Promise<boolean> {
    return (await this.directory.findById(spaceId))?.isPublic ?? false;
  }
}
