import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import { DeliveryListing, DeliveryRecord } from '../dto/webhook-records.dto';
import { WebhooksService } from '../services/webhooks.service';

/** A subscription's delivery log and redelivery; admins of the space, as WebhooksController. */
@ApiTags('webhooks (administration)')
@Controller('spaces/:space/webhooks/:webhook/deliveries')
export class WebhookDeliveriesController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The subscription’s deliveries, newest first, with their attempts' })
  @ApiOkResponse({ type: DeliveryListing })
  listWebhookDeliveries(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('webhook') webhook: string,
    @Query() query: PaginationQueryDto,
  ): Promise<DeliveryListing> {
    return this.webhooks.deliveryLog(principal, space, webhook, query);
  }

  @Post(':delivery/redeliver')
  @RateLimitClass('ordinary')
  @HttpCode(202)
  @IdentityProof()
  @ApiOperation({ summary: 'Send a delivery again (same webhook-id), from a first attempt' })
  @ApiAcceptedResponse({ type: DeliveryRecord })
  redeliverWebhookDelivery(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('webhook') webhook: string,
    @Param('delivery') delivery: string,
  ): Promise<DeliveryRecord> {
    return this.webhooks.redeliver(principal, space, webhook, delivery);
  }
}
