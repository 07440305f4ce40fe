import { NotificationExportService } from './services/notification-export.service';
import { Module } from '@nestjs/common';
import { NotificationErasureService } from './services/notification-erasure.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { HealthModule } from '../infrastructure/health/health.module';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { LiveModule } from '../infrastructure/live/live.module';
import { MetricsModule } from '../infrastructure/metrics/metrics.module';
import { PostsModule } from '../posts';
import { AuthModule } from '../protocol';
import { SpacesModule } from '../spaces';
import { UsersModule } from '../users';
import { NotificationsController } from './controllers/notifications.controller';
import { SpaceNotificationsController } from './controllers/space-notifications.controller';
import { StreamController } from './controllers/stream.controller';
import { NotificationFanout } from './entities/notification-fanout.entity';
import { Notification } from './entities/notification.entity';
import { ContentSubscriber } from './events/content.subscriber';
import { JoinAnnouncementsSubscriber } from './events/join-announcements.subscriber';
import { MembershipSubscriber } from './events/membership.subscriber';
import { NotificationStreamSubscriber } from './events/notification-stream.subscriber';
import { PostAnnouncementsSubscriber } from './events/post-announcements.subscriber';
import { NotificationsRepository } from './notifications.repository';
import { NotificationFanoutsService } from './services/notification-fanouts.service';
import { NotificationStreamService } from './services/notification-stream.service';
import { NotificationWritesService } from './services/notification-writes.service';
import { NotificationPresenter } from './services/notification.presenter';
import { NotificationsService } from './services/notifications.service';
import { PeopleNamesService } from './services/people-names.service';

/**
 * Notifications (legacy namespace, pull-based) and their live stream (`GET /v1/stream`, Server-Sent
 * Events: docs/decisions/0170-a-live-stream-of-notifications.md), fed by the spaces module's membership events and
 * the posts and comments modules' content events (post and join announcements on the job queue).
 * Recipients and names come from the spaces and users services, who reads a post from the posts
 * module. Import it before SpacesModule so `GET /spaces/notifications` is matched before
 * `GET /spaces/:space`.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Notification, NotificationFanout]),
    JobsModule,
    DomainEventsModule,
    PaginationModule,
    SpacesModule,
    UsersModule,
    PostsModule,
    AuthModule,
    LiveModule,
    HealthModule,
    MetricsModule,
  ],
  controllers: [NotificationsController, SpaceNotificationsController, StreamController],
  providers: [
    NotificationsRepository,
    NotificationExportService,
    NotificationsService,
    NotificationPresenter,
    PeopleNamesService,
    NotificationFanoutsService,
    PostAnnouncementsSubscriber,
    JoinAnnouncementsSubscriber,
    MembershipSubscriber,
    ContentSubscriber,
    NotificationWritesService,
    NotificationStreamService,
    NotificationStreamSubscriber,
    NotificationErasureService,
  ],
  exports: [NotificationErasureService, NotificationExportService],
})
export class NotificationsModule {}
