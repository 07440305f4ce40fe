/**
 * The public API of the `webhooks` module (docs/architecture.md "Module shape"): its Nest module,
 * and the event notifications subscribes to.
 */
export { WebhookDisabled } from './events/webhook.events';
export { WebhooksModule } from './webhooks.module';
