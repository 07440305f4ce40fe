import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { PostsModule } from '../posts';
import { RelayModule } from '../protocol';
import { SpacesModule } from '../spaces';
import { WebhookDeliveriesController } from './controllers/webhook-deliveries.controller';
import { WebhooksController } from './controllers/webhooks.controller';
import { WebhookDelivery } from './entities/webhook-delivery.entity';
import { Webhook } from './entities/webhook.entity';
import { WebhookJobsSubscriber } from './events/webhook-jobs.subscriber';
import { WebhookSourcesSubscriber } from './events/webhook-sources.subscriber';
import { WebhookDeliveriesService } from './services/webhook-deliveries.service';
import { WebhookFanoutService } from './services/webhook-fanout.service';
import { WebhooksService } from './services/webhooks.service';
import { WebhooksRepository } from './webhooks.repository';

/**
 * Signed outbound webhooks of a space (issue 33): its admins' subscriptions (`webhooks`), and the
 * deliveries of the posts, comments, spaces and legacy-spaces modules' committed events to them
 * (`webhook_deliveries`), signed per Standard Webhooks with the subscription's secret and the
 * service's origin key (OriginIdentities, from RelayModule), retried on the specification's schedule. Offers others only the
 * `WebhookDisabled` event (notifications tells the admins).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Webhook, WebhookDelivery]),
    PaginationModule,
    JobsModule,
    DomainEventsModule,
    SpacesModule,
    PostsModule,
    RelayModule,
  ],
  controllers: [WebhooksController, WebhookDeliveriesController],
  providers: [
    WebhooksRepository,
    WebhooksService,
    WebhookFanoutService,
    WebhookDeliveriesService,
    WebhookSourcesSubscriber,
    WebhookJobsSubscriber,
  ],
})
export class WebhooksModule {}
