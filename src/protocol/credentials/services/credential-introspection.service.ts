import { Injectable } from '@nestjs/common';
import { RequestPrincipal } from '../../../common/auth/request-authenticator';
import { unauthorized } from '../../../common/errors/api-error';
import { formatEntityId } from '../../../common/ids/entity-id';
import { SpaceDirectoryService } from '../../../spaces';
import { UsersService } from '../../../users';
import { SCOPES } from '../../auth/domain/credential-grant';
import { CredentialRecordResponse, CredentialSpaceDto } from '../dto/credential-record.dto';

/** GET /v1/credential: describes the presented credential and nothing else. */
@Injectable()
export class CredentialIntrospectionService {
  constructor(
    private readonly users: UsersService,
    private readonly spaces: SpaceDirectoryService,
  ) {}

  async describe(principal: RequestPrincipal): Promise<CredentialRecordResponse> {
    const grant = principal.credential;
    if (!grant) throw unauthorized('X-Credential required');
    const held = new Set([...grant.spaceScopes, ...grant.accountScopes]);
    return {
      cid: grant.cid,
      issuer: { did: grant.issuer, handle: await this.users.handleOf(grant.issuer) },
      audience: grant.audience,
      host: grant.host,
      scopes: SCOPES.filter((scope) => held.has(scope)),
      spaces: grant.spaces === 'all' ? 'all' : await this.describeSpaces(grant.spaces, grant.issuer),
      issuedAt: new Date(grant.issuedAt * 1000).toISOString(),
      expiresAt: new Date(grant.expiresAt * 1000).toISOString(),
    };
  }

  /**
   * `[{id, did, domain}]` in DID order. A DID that names no live space, or a space
   * without a public profile the issuer is not an active member of, keeps `id` and `domain` null:
   * the record never reveals a hidden space (api-spec.md "Hidden things are never revealed").
   */
  private async describeSpaces(dids: string[], issuer: string): Promise<CredentialSpaceDto[]> {
    return Promise.all(
      dids.map(async (did) => {
        const space = await this.spaces.findByReference(did);
        const visible =
          space !== null && (space.isPublic || (await this.spaces.roleOf(space.id, issuer)) !== null);
        return visible
          ? { id: formatEntityId('space', space.id), did, domain: space.domain }
          : { id: null, did, domain: null };
      }),
    );
  }
}
