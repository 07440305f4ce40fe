import { ApiProperty } from '@nestjs/swagger';

export class CredentialIssuerDto {
  @ApiProperty()
  did: string;

  @ApiProperty({ type: String, nullable: true })
  handle: string | null;
}

export class CredentialSpaceDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'space entity id, null when the space is unknown here',
  })
  id: string | null;

  @ApiProperty()
  did: string;

  @ApiProperty({ type: String, nullable: true })
  domain: string | null;
}

/** What the presented credential covers (design.md §4) and nothing else. */
export class CredentialRecordResponse {
  @ApiProperty()
  cid: string;

  @ApiProperty({ type: CredentialIssuerDto })
  issuer: CredentialIssuerDto;

  @ApiProperty({ description: 'the app DID the credential was issued to' })
  audience: string;

  @ApiProperty()
  host: string;

  @ApiProperty({ type: [String] })
  scopes: string[];

  @ApiProperty({
    oneOf: [
      { type: 'string', enum: ['all'] },
      { type: 'array', items: { $ref: '#/components/schemas/CredentialSpaceDto' } },
    ],
  })
  spaces: 'all' | CredentialSpaceDto[];

  @ApiProperty({ format: 'date-time' })
  issuedAt: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}
