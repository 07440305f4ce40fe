import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { PostsModule } from '../posts';
import { SpacesModule } from '../spaces';
import { UsersModule } from '../users';
import { MembershipNotifier } from './membership-notifier';
import { JobsModule } from '../infrastructure/jobs/jobs.module';
import { ContentAudience } from './content-audience';
import { ContentNotifier } from './content-notifier';
import { NotificationFanout } from './entities/notification-fanout.entity';
import { NotificationWriter } from './notification-writer';
import { PeopleNames } from './people-names';
import { PostAnnouncements } from './post-announcements';
import { JoinAnnouncements } from './join-announcements';
import { NotificationFanouts } from './notification-fanouts';
import { Notification } from './entities/notification.entity';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { PaginationModule } from '../common/pagination/pagination.module';

/**
 * Pull-based notifications (legacy namespace), fed by the spaces module's membership events and
 * the posts and comments modules' content events (post and join announcements on the job queue).
 * Recipients and names come from the spaces and users services. Import it before SpacesModule so
 * `GET /spaces/notifications` is matched before `GET /spaces/:id`.
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
  controllers: [NotificationsController],
  providers: [
    NotificationsService,
    NotificationWriter,
    PeopleNames,
    ContentAudience,
    NotificationFanouts,
    PostAnnouncements,
    JoinAnnouncements,
    MembershipNotifier,
    ContentNotifier,
  ],
})
export class NotificationsModule {}
