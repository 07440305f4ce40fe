import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SpacesModule } from '../spaces/spaces.module';
import { UsersModule } from '../users/users.module';
import { Notification } from './notification.entity';
import { NotificationsController } from './notifications.controller';
import { NotificationsService } from './notifications.service';
import { SpaceEvents } from './space-events';

/**
 * Pull-based notifications (legacy namespace). Global so the spaces module can inject
 * `SpaceEvents` without importing this module: no module cycle. Recipients and names come from the
 * spaces and users services; the read-time visibility filter joins the spaces tables in SQL so a
 * page is one query. Import it before SpacesModule so `GET /spaces/notifications` is matched before
 * `GET /spaces/:id`.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Notification]), SpacesModule, UsersModule],
  controllers: [NotificationsController],
  providers: [NotificationsService, SpaceEvents],
  exports: [SpaceEvents, NotificationsService],
})
export class NotificationsModule {}
