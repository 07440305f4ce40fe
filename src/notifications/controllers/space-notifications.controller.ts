import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { SpaceNotificationCounts } from '../dto/notification-records.dto';
import { NotificationsService } from '../services/notifications.service';

/**
 * The caller's unread notifications per space (legacy namespace). Registered before the spaces
 * module's controllers, so `GET /spaces/notifications` is matched before `GET /spaces/:space`.
 */
@ApiTags('notifications (legacy)')
@Controller('spaces/notifications')
export class SpaceNotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'Unread notification counts per space' })
  @ApiOkResponse({ type: SpaceNotificationCounts })
  listSpaceNotificationCounts(@Principal() principal: RequestPrincipal): Promise<SpaceNotificationCounts> {
    return this.notifications.spaceCounts(principal.did);
  }
}
