import { Module } from '@nestjs/common';
import { NotificationErasureService } from './services/notification-erasure.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { PostsModule } from '../posts';
import { SpacesModule } from '../spaces';
import { UsersModule } from '../users';
import { NotificationsController } from './controllers/notifications.controller';
import { SpaceNotificationsController } from './controllers/space-notifications.controller';
import { NotificationFanout } from './entities/notification-fanout.entity';
import { Notification } from './entities/notification.entity';
import { ContentSubscriber } from './events/content.subscriber';
import { JoinAnnouncementsSubscriber } from './events/join-announcements.subscriber';
import { MembershipSubscriber } from './events/membership.subscriber';
import { PostAnnouncementsSubscriber } from './events/post-announcements.subscriber';
import { NotificationsRepository } from './notifications.repository';
import { NotificationFanoutsService } from './services/notification-fanouts.service';
import { NotificationPresenter } from './services/notification.presenter';
import { NotificationsService } from './services/notifications.service';
import { PeopleNamesService } from './services/people-names.service';

/**
 * Pull-based notifications (legacy namespace), fed by the spaces module's membership events and
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
  ],
  controllers: [NotificationsController, SpaceNotificationsController],
  providers: [
    NotificationsRepository,
    NotificationsService,
    NotificationPresenter,
    PeopleNamesService,
    NotificationFanoutsService,
    PostAnnouncementsSubscriber,
    JoinAnnouncementsSubscriber,
    MembershipSubscriber,
    ContentSubscriber,
    NotificationErasureService,
  ],
  exports: [NotificationErasureService],
})
export class NotificationsModule {}
