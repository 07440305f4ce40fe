import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import {
  MarkAllReadRequest,
  MarkAllReadResult,
  NotificationPage,
  NotificationRecord,
  NotificationsQuery,
  NotificationStatusRecord,
} from '../dto/notification-records.dto';
import { NotificationsService } from '../services/notifications.service';

/** The caller's own notifications (legacy namespace; pull-based). */
@ApiTags('notifications (legacy)')
@Controller('notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The caller’s notifications, most recent activity first' })
  @ApiOkResponse({ type: NotificationPage })
  listNotifications(
    @Principal() principal: RequestPrincipal,
    @Query() query: NotificationsQuery,
  ): Promise<NotificationPage> {
    return this.notifications.list(principal.did, query);
  }

  @Get('status')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Latest activity and unread count, for frequent polling' })
  @ApiOkResponse({ type: NotificationStatusRecord })
  getNotificationStatus(@Principal() principal: RequestPrincipal): Promise<NotificationStatusRecord> {
    return this.notifications.status(principal.did);
  }

  @Post('mark-all-read')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Mark every notification of the caller read, or those of one space' })
  @ApiOkResponse({ type: MarkAllReadResult })
  markAllNotificationsRead(
    @Principal() principal: RequestPrincipal,
    @Body() body: MarkAllReadRequest,
  ): Promise<MarkAllReadResult> {
    return this.notifications.markAllRead(principal.did, body.spaceDID);
  }

  @Post(':notification/mark-read')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'Mark one of the caller’s notifications read (idempotent)' })
  @ApiOkResponse({ type: NotificationRecord })
  markNotificationRead(
    @Principal() principal: RequestPrincipal,
    @Param('notification') notification: string,
  ): Promise<NotificationRecord> {
    return this.notifications.markRead(principal.did, notification);
  }
}
