import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { SpacesModule } from '../spaces/spaces.module';
import { UsersModule } from '../users/users.module';
import { MembershipNotifier } from './membership-notifier';
import { Notification } from './entities/notification.entity';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { PaginationModule } from '../common/pagination/pagination.module';

/**
 * Pull-based notifications (legacy namespace), fed by the spaces module's membership events.
 * Recipients and names come from the spaces and users services. Import it before SpacesModule so
 * `GET /spaces/notifications` is matched before `GET /spaces/:id`.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Notification]),
    DomainEventsModule,
    PaginationModule,
    SpacesModule,
    UsersModule,
  ],
  controllers: [NotificationsController],
  providers: [NotificationsService, MembershipNotifier],
})
export class NotificationsModule {}
