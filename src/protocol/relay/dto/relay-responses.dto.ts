import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Every relay failure but 404 (WEB-RELAY.md "Error Responses"). */
export class RelayErrorResponse {
  @ApiProperty({ description: 'diagnostic prose; branch on the status, never on this text' })
  error: string;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'per-member issues of a refused ingest body',
  })
  details?: Record<string, unknown>[];
}

export class RelayCapabilitiesDto {
  @ApiProperty() proof: boolean;
  @ApiProperty() write: boolean;
  @ApiProperty() content: boolean;
  @ApiProperty() log: boolean;
  @ApiProperty() revocations: boolean;
  @ApiProperty() index: boolean;
  @ApiProperty() signing: boolean;
}

export class RelayPeerDto {
  @ApiProperty()
  endpoint: string;
}

export class RelayStatsDto {
  @ApiProperty({
    description:
      'operations held until a missing dependency arrives (WEB-RELAY.md "Convergence"); -1 if unavailable',
  })
  pendingOps: number;
}

/** `GET /.well-known/plat-relay`. */
export class RelayWellKnownResponse {
  @ApiProperty({ description: 'the relay’s DID (the service’s origin identity)' })
  did: string;

  @ApiProperty({ example: 'plat-web-relay' })
  protocol: string;

  @ApiProperty({ description: 'release version of this relay implementation' })
  version: string;

  @ApiProperty({ type: RelayCapabilitiesDto })
  capabilities: RelayCapabilitiesDto;

  @ApiProperty({ description: 'profile artifact (compact JWS) signed by the relay DID' })
  profile: string;

  @ApiProperty({ type: [RelayPeerDto] })
  peers: RelayPeerDto[];

  @ApiProperty({ type: RelayStatsDto })
  stats: RelayStatsDto;
}

export class IngestResultDto {
  @ApiProperty({ description: 'operation CID (empty when the token could not be decoded)' })
  cid: string;

  @ApiProperty({ enum: ['new', 'duplicate', 'rejected'] })
  status: 'new' | 'duplicate' | 'rejected';

  @ApiPropertyOptional({ enum: ['identity-op', 'content-op', 'revocation', 'credential'] })
  kind?: string;

  @ApiPropertyOptional({ description: 'DID, or contentId for content operations' })
  chainId?: string;

  @ApiPropertyOptional({ description: 'why the operation was rejected' })
  error?: string;
}

export class IngestOperationsResponse {
  @ApiProperty({ type: [IngestResultDto], description: '`results[i]` answers `operations[i]`' })
  results: IngestResultDto[];
}

export class MultikeyDto {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ['Multikey'] })
  type: 'Multikey';

  @ApiProperty()
  publicKeyMultibase: string;
}

export class IdentityStateDto {
  @ApiProperty() did: string;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ type: [MultikeyDto] }) authKeys: MultikeyDto[];
  @ApiProperty({ type: [MultikeyDto] }) assertKeys: MultikeyDto[];
  @ApiProperty({ type: [MultikeyDto] }) controllerKeys: MultikeyDto[];

  @ApiProperty({
    type: 'array',
    items: {
      type: 'object',
      properties: { id: { type: 'string' }, type: { type: 'string' } },
      required: ['id', 'type'],
      additionalProperties: true,
    },
  })
  services: Record<string, unknown>[];
}

/** `GET /proof/v1/identities/{did}`. */
export class IdentityStateResponse {
  @ApiProperty() did: string;
  @ApiProperty() headCID: string;
  @ApiProperty({ type: IdentityStateDto }) state: IdentityStateDto;
}

export class ContentStateDto {
  @ApiProperty() contentId: string;
  @ApiProperty() genesisCID: string;
  @ApiProperty() headCID: string;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ type: String, nullable: true }) currentDocumentCID: string | null;
  @ApiProperty({ description: 'operations in the chain, all branches' }) length: number;
  @ApiProperty() creatorDID: string;
}

/** `GET /proof/v1/content/{contentId}`. */
export class ContentStateResponse {
  @ApiProperty() contentId: string;
  @ApiProperty() genesisCID: string;
  @ApiProperty() headCID: string;
  @ApiProperty({ type: ContentStateDto }) state: ContentStateDto;
}

export class LogEntryDto {
  @ApiProperty() cid: string;
  @ApiProperty() jwsToken: string;
}

/** Per-chain logs, in ingestion order. */
export class ChainLogResponse {
  @ApiProperty({ type: [LogEntryDto] })
  entries: LogEntryDto[];

  @ApiProperty({ type: String, nullable: true, description: 'pass as `after`; null when caught up' })
  next: string | null;
}

export class GlobalLogEntryDto extends LogEntryDto {
  @ApiProperty({ enum: ['identity-op', 'content-op', 'revocation', 'credential'] }) kind: string;
  @ApiProperty() chainId: string;
}

/** `GET /proof/v1/log`. */
export class GlobalLogResponse {
  @ApiProperty({ type: [GlobalLogEntryDto] })
  entries: GlobalLogEntryDto[];

  @ApiProperty({ type: String, nullable: true })
  next: string | null;
}

/** `GET /proof/v1/operations/{cid}`. */
export class OperationResponse {
  @ApiProperty() cid: string;
  @ApiProperty() jwsToken: string;
  @ApiProperty({ enum: ['identity-op', 'content-op', 'revocation', 'credential'] }) kind: string;
  @ApiProperty() chainId: string;
}

/** `GET /proof/v1/countersignatures/{cid}` (this relay accepts none: always empty). */
export class CountersignaturesResponse {
  @ApiProperty({ type: [LogEntryDto] })
  countersignatures: LogEntryDto[];

  @ApiProperty({ type: String, nullable: true })
  next: string | null;
}

export class IndexIdentityProfileDto {
  @ApiProperty({ description: 'contentId of the profile-labelled ContentAnchor' })
  anchor: string;

  @ApiProperty({ description: 'the relay holds and serves the anchored chain’s head document' })
  publicRead: boolean;

  @ApiProperty({ type: String, nullable: true })
  docSchema: string | null;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;
}

export class IndexIdentityRowDto {
  @ApiProperty() did: string;
  @ApiProperty() headCID: string;
  @ApiProperty() opCount: number;
  @ApiProperty() genesisAt: string;
  @ApiProperty() headAt: string;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ type: IndexIdentityProfileDto, nullable: true }) profile: IndexIdentityProfileDto | null;
}

/** `GET /index/v0/identities`. */
export class IndexIdentitiesResponse {
  @ApiProperty({ type: [IndexIdentityRowDto] })
  identities: IndexIdentityRowDto[];

  @ApiProperty({ type: String, nullable: true })
  next: string | null;
}

export class IndexContentRowDto {
  @ApiProperty() contentId: string;
  @ApiProperty() genesisCID: string;
  @ApiProperty() headCID: string;
  @ApiProperty() creatorDID: string;
  @ApiProperty() isDeleted: boolean;
  @ApiProperty({ description: 'operations across all branches' }) opCount: number;
  @ApiProperty() genesisAt: string;
  @ApiProperty() headAt: string;
  @ApiProperty({ type: String, nullable: true }) currentDocumentCID: string | null;
  @ApiProperty({ description: 'the relay holds and serves the head document' }) publicRead: boolean;
  @ApiProperty({ type: String, nullable: true }) docSchema: string | null;
  @ApiProperty({ type: String, nullable: true }) title: string | null;
}

/** `GET /index/v0/content`. */
export class IndexContentResponse {
  @ApiProperty({ type: [IndexContentRowDto] })
  content: IndexContentRowDto[];

  @ApiProperty({ type: String, nullable: true })
  next: string | null;
}

/** `GET /revocations/v1/credential/{credentialCID}`. */
export class RevocationStatusResponse {
  @ApiProperty() credentialCID: string;
  @ApiProperty() revoked: boolean;

  @ApiPropertyOptional({ description: 'the revocation JWS, when revoked' })
  revocation?: string;
}

export class IssuerRevocationDto {
  @ApiProperty() credentialCID: string;
  @ApiProperty() revocation: string;
}

/** `GET /revocations/v1/issuer/{did}`. */
export class IssuerRevocationsResponse {
  @ApiProperty() did: string;
  @ApiProperty({ type: [IssuerRevocationDto] }) revocations: IssuerRevocationDto[];
  @ApiProperty({ type: String, nullable: true }) next: string | null;
}

export class ProtocolEndpointsDto {
  @ApiProperty({ example: 'https://api.example.com/relay/.well-known/plat-relay' })
  wellKnown: string;

  @ApiProperty({ description: 'template with `{did}`' })
  identity: string;

  @ApiProperty({ description: 'template with `{did}`' })
  identityLog: string;

  @ApiProperty({ description: 'template with `{contentId}`' })
  content: string;

  @ApiProperty({ description: 'template with `{contentId}`' })
  contentLog: string;

  @ApiProperty({ description: 'template with `{cid}`' })
  operation: string;

  @ApiProperty({ description: 'template with `{contentId}`' })
  blob: string;

  @ApiProperty()
  indexContent: string;

  @ApiProperty()
  indexIdentities: string;
}

/** `GET /v1/protocol`: where the relay is; clients never hardcode it. */
export class ProtocolDiscoveryResponse {
  @ApiProperty({ example: 'https://api.example.com/relay' })
  relayUrl: string;

  @ApiProperty({ example: 'plat', description: 'the DID method of every emitted DID' })
  didMethod: string;

  @ApiProperty()
  specUrl: string;

  @ApiProperty({ type: ProtocolEndpointsDto })
  endpoints: ProtocolEndpointsDto;
}
