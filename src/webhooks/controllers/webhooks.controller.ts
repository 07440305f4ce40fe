import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { IdentityProof } from '../../common/auth/access.decorators';
import { Principal } from '../../common/auth/principal.decorator';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { RateLimitClass } from '../../infrastructure/rate-limit/rate-limit-class';
import {
  CreatedWebhookRecord,
  DeliveryRecord,
  RotatedSecretRecord,
  WebhookListing,
  WebhookRecord,
} from '../dto/webhook-records.dto';
import { CreateWebhookRequest, UpdateWebhookRequest } from '../dto/webhook-requests.dto';
import { WebhooksService } from '../services/webhooks.service';

/**
 * A space's webhook subscriptions, beside design.md §9's administration (no `/v1`): admins of the
 * space; a non-admin member gets 403, a non-member of a space without a public profile the one 404
 * (docs/decisions/0160-webhook-subscriptions.md).
 */
@ApiTags('webhooks (administration)')
@Controller('spaces/:space/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @RateLimitClass('ordinary')
  @HttpCode(201)
  @IdentityProof()
  @ApiOperation({
    summary: 'Subscribe a URL to events of the space; answers its signing secret once',
    description:
      'Deliveries are POSTs signed per Standard Webhooks (docs/decisions/0163-webhook-signatures.md): ' +
      'headers `webhook-id`, `webhook-timestamp`, `webhook-signature`; the signed content is ' +
      '`${webhook-id}.${webhook-timestamp}.${body}`. `webhook-signature` holds `v1,<base64 HMAC-SHA256>` ' +
      'under the bytes of the base64 after `whsec_` (a second `v1,` under the previous secret for 24 h after ' +
      'a rotation) and `v1a,<base64 Ed25519>` by the service origin key. To resolve that key: ' +
      '`GET /v1/protocol` names `endpoints.wellKnown` (its `did` is the origin) and `endpoints.identity`; ' +
      'the identity state of that DID lists `state.assertKeys[].publicKeyMultibase` (`z` + base58btc of ' +
      '0xed 0x01 and the 32-byte key); a `v1a` signature is valid when one of them verifies it.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookRecord })
  createWebhook(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Body() body: CreateWebhookRequest,
  ): Promise<CreatedWebhookRecord> {
    return this.webhooks.create(principal, space, body);
  }

  @Get()
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'The space’s webhook subscriptions, newest first' })
  @ApiOkResponse({ type: WebhookListing })
  listWebhooks(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Query() query: PaginationQueryDto,
  ): Promise<WebhookListing> {
    return this.webhooks.list(principal, space, query);
  }

  @Get(':webhook')
  @RateLimitClass('read')
  @IdentityProof()
  @ApiOperation({ summary: 'One webhook subscription (never its secret)' })
  @ApiOkResponse({ type: WebhookRecord })
  getWebhook(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('webhook') webhook: string,
  ): Promise<WebhookRecord> {
    return this.webhooks.get(principal, space, webhook);
  }

  @Patch(':webhook')
  @RateLimitClass('ordinary')
  @IdentityProof()
  @ApiOperation({ summary: 'Change a subscription’s url, events, description or enabled' })
  @ApiOkResponse({ type: WebhookRecord })
  updateWebhook(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('webhook') webhook: string,
    @Body() body: UpdateWebhookRequest,
  ): Promise<WebhookRecord> {
    return this.webhooks.update(principal, space, webhook, body);
  }

  @Delete(':webhook')
  @RateLimitClass('ordinary')
  @HttpCode(204)
  @IdentityProof()
  @ApiOperation({ summary: 'Delete a subscription and its delivery log' })
  @ApiNoContentResponse()
  deleteWebhook(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('webhook') webhook: string,
  ): Promise<void> {
    return this.webhooks.remove(principal, space, webhook);
  }

  @Post(':webhook/rotate-secret')
  @RateLimitClass('ordinary')
  @HttpCode(200)
  @IdentityProof()
  @ApiOperation({ summary: 'A new signing secret; the previous one still signs beside it for 24 hours' })
  @ApiOkResponse({ type: RotatedSecretRecord })
  rotateWebhookSecret(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('webhook') webhook: string,
  ): Promise<RotatedSecretRecord> {
    return this.webhooks.rotateSecret(principal, space, webhook);
  }

  @Post(':webhook/test')
  @RateLimitClass('ordinary')
  @HttpCode(202)
  @IdentityProof()
  @ApiOperation({ summary: 'Send a webhook.test event to the subscription' })
  @ApiAcceptedResponse({ type: DeliveryRecord })
  testWebhook(
    @Principal() principal: RequestPrincipal,
    @Param('space') space: string,
    @Param('webhook') webhook: string,
  ): Promise<DeliveryRecord> {
    return this.webhooks.test(principal, space, webhook);
  }
}
