/**
 * The event types a subscription may name (docs/decisions/0161-webhook-events-and-payloads.md), and
 * which of them need `includeMembersOnly`: applications and membership changes are not something an
 * anonymous reader sees, so they are only delivered in the member view.
 */
export const WEBHOOK_EVENT_TYPES = [
  'post.created',
  'post.updated',
  'post.deleted',
  'comment.created',
  'comment.deleted',
  'member.joined',
  'member.left',
  'member.banned',
  'application.submitted',
  'application.approved',
  'application.rejected',
  'event.created',
  'event.updated',
  'event.canceled',
  'product.published',
  'release.published',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | 'webhook.test';

/** Types only delivered to subscriptions with `includeMembersOnly` (their subject is members' business). */
export const MEMBERS_ONLY_TYPES: ReadonlySet<string> = new Set([
  'member.joined',
  'member.left',
  'member.banned',
  'application.submitted',
  'application.approved',
  'application.rejected',
]);

/**
 * What happened, as the fan-out job carries it from the producer's transaction: the ids of the
 * subject (uuid), never its content; the job reads the content as each view shows it at delivery
 * time.
 */
export interface WebhookOccurrence {
  /** The message id every subscription receives it under (`msg_` + a UUIDv7's hex). */
  messageId: string;
  type: WebhookEventType;
  spaceId: string;
  /** ISO time of the write. */
  timestamp: string;
  subject: {
    postId?: string;
    /** Where a deleted post was (whether a view saw it). */
    topicId?: string;
    commentId?: string;
    memberDid?: string;
    applicationId?: string;
    eventId?: string;
    /** A calendar event's visibility at the write (`public` or `members`). */
    visibility?: string;
    productId?: string;
    releaseId?: string;
  };
}

/** The Standard Webhooks payload: `{type, timestamp, data}`. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}
