import { Controller, Get } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Gated } from '../../../common/auth/access.decorators';
import { Principal } from '../../../common/auth/principal.decorator';
import { RequestPrincipal } from '../../../common/auth/request-authenticator';
import { CredentialIntrospectionService } from '../services/credential-introspection.service';
import { CredentialRecordResponse, CredentialSpaceDto } from '../dto/credential-record.dto';
import { RateLimitClass } from '../../../infrastructure/rate-limit/rate-limit-class';

@ApiTags('credentials')
@ApiExtraModels(CredentialSpaceDto)
@Controller('v1/credential')
export class CredentialController {
  constructor(private readonly introspection: CredentialIntrospectionService) {}

  @Get()
  @RateLimitClass('read')
  @Gated([], { identityProof: false })
  @ApiOperation({ summary: 'What the presented credential covers' })
  @ApiOkResponse({ type: CredentialRecordResponse })
  describeCredential(@Principal() principal: RequestPrincipal): Promise<CredentialRecordResponse> {
    return this.introspection.describe(principal);
  }
}
