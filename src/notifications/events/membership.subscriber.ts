import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { ApplicationCanceled, ApplicationDecided, ApplicationSubmitted } from '../../legacy-spaces';
import { MemberBanned, MemberJoined, MemberKicked, MemberRoleChanged } from '../../spaces';
import { WebhookDisabled } from '../../webhooks';
import { NotificationsService } from '../services/notifications.service';
import { JoinAnnouncementsSubscriber } from './join-announcements.subscriber';

/**
 * Turns committed membership and application events, and webhooks the service disabled, into notifications (never on rollback): a join
 * records a JoinAnnouncementsSubscriber job in its transaction, the other kinds tell their few recipients at once. A delivery
 * failure is logged by the event bus, never a failure of the committed write.
 */
@Injectable()
export class MembershipSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly notifications: NotificationsService,
    private readonly joins: JoinAnnouncementsSubscriber,
  ) {}

  onModuleInit(): void {
    const record = this.notifications.record.bind(this.notifications);
    // Every other member is told: a background job, so the join's cost does not grow with the space;
    // recorded with the join (the job outbox), queued after commit.
    this.events.withinTransaction(MemberJoined, (event, manager) =>
      this.joins.record(manager, event.spaceId, event.memberDid),
    );
    this.events.afterCommit(MemberRoleChanged, (event) =>
      record({ kind: 'notify.member.role_changed', ...event }),
    );
    this.events.afterCommit(MemberKicked, (event) => record({ kind: 'notify.member.kicked', ...event }));
    this.events.afterCommit(MemberBanned, (event) => record({ kind: 'notify.member.banned', ...event }));
    this.events.afterCommit(ApplicationSubmitted, (event) =>
      record({ kind: 'notify.application.submitted', ...event }),
    );
    this.events.afterCommit(ApplicationCanceled, (event) =>
      record({ kind: 'notify.application.canceled', ...event }),
    );
    this.events.afterCommit(ApplicationDecided, ({ decision, ...event }) =>
      record({ kind: `notify.application.${decision}`, ...event }),
    );
    this.events.afterCommit(WebhookDisabled, (event) =>
      record({ kind: 'notify.webhook.disabled', ...event }),
    );
  }
}
