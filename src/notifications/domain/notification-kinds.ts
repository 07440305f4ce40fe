import { formatEntityId } from '../../common/ids/entity-id';
import type { NotificationAudience } from '../entities/notification.entity';

/**
 * A committed membership or application event, as notifications read it (joins: JoinAnnouncementsSubscriber).
 */
export type SpaceEvent =
  | { kind: 'notify.member.role_changed'; spaceId: string; memberDid: string; role: string; byDid: string }
  | {
      kind: 'notify.member.kicked' | 'notify.member.banned';
      spaceId: string;
      memberDid: string;
      byDid: string;
    }
  | {
      kind: 'notify.application.submitted' | 'notify.application.canceled';
      spaceId: string;
      applicantDid: string;
      applicationId: string;
    }
  | {
      kind: 'notify.application.approved' | 'notify.application.rejected';
      spaceId: string;
      applicantDid: string;
      applicationId: string;
      byDid: string;
    }
  | {
      kind: 'notify.webhook.disabled';
      spaceId: string;
      webhookId: string;
      url: string;
      reason: 'gone' | 'failing';
      createdByDid: string;
    };

/**
 * How one space event becomes notifications: who receives it, whom the group gathers (`person`),
 * who caused it (`actor`, the preview's createdBy; never notified of their own act), and the
 * preview.
 */
export interface NotificationPlan {
  audience: NotificationAudience;
  /** The one recipient of `member` and `applicant` audiences. */
  recipientDid: string | null;
  person: string;
  actor: string;
  /** The actor is told too: the service acted, `actor` only names whom the preview shows. */
  actorNotified?: boolean;
  scopeType: 'member' | 'application' | 'webhook';
  previewId: string;
  title: (name: (did: string) => string) => string;
}

export function planOf(event: SpaceEvent): NotificationPlan {
  switch (event.kind) {
    case 'notify.member.role_changed':
      return {
        audience: 'member',
        recipientDid: event.memberDid,
        person: event.byDid,
        actor: event.byDid,
        scopeType: 'member',
        previewId: event.memberDid,
        title: () => `Your role is now ${event.role}`,
      };
    case 'notify.member.kicked':
    case 'notify.member.banned':
      return {
        audience: 'admins',
        recipientDid: null,
        person: event.memberDid,
        actor: event.byDid,
        scopeType: 'member',
        previewId: event.memberDid,
        title: (name) =>
          `${name(event.memberDid)} was ${event.kind === 'notify.member.kicked' ? 'removed' : 'banned'}`,
      };
    case 'notify.application.submitted':
      return {
        audience: 'admins',
        recipientDid: null,
        person: event.applicantDid,
        actor: event.applicantDid,
        scopeType: 'application',
        previewId: formatEntityId('application', event.applicationId),
        title: (name) => `${name(event.applicantDid)} applied to join`,
      };
    case 'notify.application.canceled':
      return {
        audience: 'admins',
        recipientDid: null,
        person: event.applicantDid,
        actor: event.applicantDid,
        scopeType: 'application',
        previewId: formatEntityId('application', event.applicationId),
        title: (name) => `${name(event.applicantDid)} withdrew their application`,
      };
    case 'notify.application.approved':
    case 'notify.application.rejected':
      return {
        audience: 'applicant',
        recipientDid: event.applicantDid,
        person: event.byDid,
        actor: event.byDid,
        scopeType: 'application',
        previewId: formatEntityId('application', event.applicationId),
        title: () =>
          `Your application was ${event.kind === 'notify.application.approved' ? 'approved' : 'rejected'}`,
      };
    case 'notify.webhook.disabled':
      // The service disabled it: every admin is told, the one who created it included
      // (docs/decisions/0165-webhook-disabled-notification.md).
      return {
        audience: 'admins',
        recipientDid: null,
        person: event.createdByDid,
        actor: event.createdByDid,
        actorNotified: true,
        scopeType: 'webhook',
        previewId: formatEntityId('webhook', event.webhookId),
        title: () =>
          `A webhook to ${hostOf(event.url)} was disabled: ${
            event.reason === 'gone' ? 'its receiver answered 410 Gone' : 'its deliveries failed for 5 days'
          }`,
      };
  }
}

/** The host a webhook URL names (never its path or query: those may carry a receiver's token). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an endpoint';
  }
}
