import { Injectable, OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CommentAdded, CommentRemoved } from '../../comments';
import { EventCanceled, EventCreated, EventUpdated } from '../../events';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { ApplicationDecided, ApplicationSubmitted } from '../../legacy-spaces';
import { PostDeleted, PostPublished, PostUpdated } from '../../posts';
import { MemberBanned, MemberJoined, MembershipEnded } from '../../spaces';
import { ProductPublished, ReleasePublished } from '../../store';
import { WebhookFanoutService } from '../services/webhook-fanout.service';

/**
 * The owning modules' domain events that webhooks deliver (docs/decisions/0161-webhook-events-and-payloads.md).
 * Each records one fan-out job **inside** the producer's transaction (the job outbox: handed on
 * after commit, never for a rolled-back write, swept until it ran), so a write costs one statement
 * whatever the number of subscriptions and nothing committed is lost.
 */
@Injectable()
export class WebhookSourcesSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly fanout: WebhookFanoutService,
  ) {}

  onModuleInit(): void {
    const on = this.events.withinTransaction.bind(this.events);
    on(PostPublished, (event, manager) =>
      this.fanout.record(manager, 'post.created', event.spaceId, { postId: event.postId }),
    );
    on(PostUpdated, (event, manager) =>
      this.fanout.record(manager, 'post.updated', event.spaceId, { postId: event.postId }),
    );
    on(PostDeleted, (event, manager) =>
      this.fanout.record(manager, 'post.deleted', event.spaceId, {
        postId: event.postId,
        topicId: event.topicId,
      }),
    );
    on(CommentAdded, (event, manager) =>
      this.fanout.record(manager, 'comment.created', event.spaceId, {
        postId: event.postId,
        commentId: event.commentId,
      }),
    );
    on(CommentRemoved, (event, manager) =>
      this.fanout.record(manager, 'comment.deleted', event.spaceId, {
        postId: event.postId,
        commentId: event.commentId,
      }),
    );
    on(MemberJoined, (event, manager) =>
      this.fanout.record(manager, 'member.joined', event.spaceId, { memberDid: event.memberDid }),
    );
    on(MembershipEnded, (event, manager) =>
      this.fanout.record(manager, 'member.left', event.spaceId, { memberDid: event.memberDid }),
    );
    on(MemberBanned, (event, manager) =>
      this.fanout.record(manager, 'member.banned', event.spaceId, { memberDid: event.memberDid }),
    );
    // Drafts are nobody's news; members-only events reach the member view only.
    const calendar =
      (type: 'event.created' | 'event.updated' | 'event.canceled') =>
      (event: { spaceId: string; eventId: string; visibility: string }, manager: EntityManager) =>
        event.visibility === 'draft'
          ? Promise.resolve()
          : this.fanout.record(manager, type, event.spaceId, {
              eventId: event.eventId,
              visibility: event.visibility,
            });
    on(EventCreated, calendar('event.created'));
    on(EventUpdated, calendar('event.updated'));
    on(EventCanceled, calendar('event.canceled'));
    on(ProductPublished, (event, manager) =>
      this.fanout.record(manager, 'product.published', event.spaceId, { productId: event.productId }),
    );
    on(ReleasePublished, (event, manager) =>
      this.fanout.record(manager, 'release.published', event.spaceId, { releaseId: event.releaseId }),
    );
    on(ApplicationSubmitted, (event, manager) =>
      this.fanout.record(manager, 'application.submitted', event.spaceId, {
        applicationId: event.applicationId,
        memberDid: event.applicantDid,
      }),
    );
    on(ApplicationDecided, (event, manager) =>
      this.fanout.record(manager, `application.${event.decision}`, event.spaceId, {
        applicationId: event.applicationId,
        memberDid: event.applicantDid,
      }),
    );
  }
}
