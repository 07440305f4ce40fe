import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../infrastructure/events/domain-events.service';
import {
  ApplicationCanceled,
  ApplicationDecided,
  ApplicationSubmitted,
} from '../legacy-spaces/events/application-events';
import {
  MemberBanned,
  MemberJoined,
  MemberKicked,
  MemberRoleChanged,
} from '../spaces/events/membership-events';
import { NotificationsService } from './notifications.service';

/**
 * Turns committed membership and application events into notifications (never on rollback). A
 * delivery failure is logged by the event bus, never a failure of the committed write.
 */
@Injectable()
export class MembershipNotifier implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly notifications: NotificationsService,
  ) {}

  onModuleInit(): void {
    const record = this.notifications.record.bind(this.notifications);
    this.events.afterCommit(MemberJoined, (event) => record({ kind: 'notify.member.joined', ...event }));
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
  }
}
