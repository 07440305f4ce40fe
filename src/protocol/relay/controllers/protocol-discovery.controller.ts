import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '../../../common/auth/access.decorators';
import { AppConfig } from '../../../config/app-config';
import { PLAT_BRAND } from '../../core';
import { ProtocolDiscoveryResponse } from '../dto/relay-responses.dto';
import { RateLimitClass } from '../../../infrastructure/rate-limit/rate-limit-class';

/** Builds the discovery document from configuration (design.md §1, api-spec.md). */
export function protocolDiscovery(config: AppConfig): ProtocolDiscoveryResponse {
  const relay = config.relayUrl;
  return {
    relayUrl: relay,
    didMethod: PLAT_BRAND.method,
    specUrl: config.PROTOCOL_SPEC_URL,
    endpoints: {
      wellKnown: `${relay}/.well-known/plat-relay`,
      identity: `${relay}/proof/v1/identities/{did}`,
      identityLog: `${relay}/proof/v1/identities/{did}/log`,
      content: `${relay}/proof/v1/content/{contentId}`,
      contentLog: `${relay}/proof/v1/content/{contentId}/log`,
      operation: `${relay}/proof/v1/operations/{cid}`,
      blob: `${relay}/content/{contentId}/blob`,
      indexContent: `${relay}/index/v0/content`,
      indexIdentities: `${relay}/index/v0/identities`,
    },
  };
}

@ApiTags('protocol')
@Controller('v1/protocol')
export class ProtocolDiscoveryController {
  constructor(private readonly config: AppConfig) {}

  @Get()
  @RateLimitClass('read')
  @Anonymous()
  @ApiOperation({ summary: 'Protocol discovery: the relay URL and its route templates' })
  @ApiOkResponse({ type: ProtocolDiscoveryResponse })
  getProtocolDiscovery(): ProtocolDiscoveryResponse {
    return protocolDiscovery(this.config);
  }
}
