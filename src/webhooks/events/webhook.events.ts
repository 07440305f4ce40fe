/**
 * A subscription was disabled by the service (the receiver answered 410, or it failed for 5 days),
 * emitted in the disabling transaction; notifications tells the space's admins
 * (`notify.webhook.disabled`, docs/decisions/0165-webhook-disabled-notification.md).
 */
export class WebhookDisabled {
  constructor(
    readonly spaceId: string,
    readonly webhookId: string,
    readonly url: string,
    readonly reason: 'gone' | 'failing',
    /** The admin who created it (named in the notification's preview). */
    readonly createdByDid: string,
  ) {}
}
