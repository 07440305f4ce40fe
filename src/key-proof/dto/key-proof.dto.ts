import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

const CODE_EXAMPLE = 'k7d2f9ra';
const DID_EXAMPLE = 'did:plat:2346789acdefhknrtvz2346789acdef';
const CID_EXAMPLE = 'bafyreigdmqpykrgxyaxtlafqpqhzrb7qy2rh75nldvfd4tucqmqqme5yje';
const MULTIKEY_EXAMPLE = 'z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
const STATUS_VALUES = ['pending', 'presented', 'adopted', 'rejected', 'failed', 'expired'];

// ---- owner side (design.md §10) ----

export class CreateKeyProofRequest {
  @ApiPropertyOptional({
    example: 'auth,assert',
    description: 'roles for the new key, comma-joined in the order auth, assert, controller',
  })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  roleSet?: string;
}

export class CreatedKeyProof {
  @ApiProperty({ example: CODE_EXAMPLE, description: 'eight characters of the ID alphabet' })
  code: string;

  @ApiProperty({ example: '2026-03-01T12:10:00.000Z' })
  expiresAt: string;
}

export class PresentedKey {
  @ApiProperty({ example: MULTIKEY_EXAMPLE })
  publicKeyMultibase: string;

  @ApiProperty({ example: 'CLI signing key' })
  description: string;
}

export class KeyProofRecord {
  @ApiProperty({ example: CODE_EXAMPLE })
  code: string;

  @ApiProperty({ enum: STATUS_VALUES, example: 'presented' })
  status: string;

  @ApiProperty({ description: 'presented, but the chain head moved since the envelope was signed' })
  stale: boolean;

  @ApiProperty({ example: 'auth,assert' })
  roleSet: string;

  @ApiProperty({ example: CID_EXAMPLE, description: 'the head an adoption must extend' })
  prevCID: string;

  @ApiProperty({ type: PresentedKey, nullable: true })
  presented: PresentedKey | null;

  @ApiProperty({ example: '2026-03-01T12:10:00.000Z' })
  expiresAt: string;
}

export class AdoptKeyProofRequest {
  @ApiProperty({
    description:
      'compact JWS of a signed identity update extending prevCID that adds exactly the presented key to exactly the role set',
  })
  @IsString()
  @MaxLength(65536)
  operation: string;
}

export class AdoptedKeyProof {
  @ApiProperty({ enum: ['adopted'] })
  status: 'adopted';

  @ApiProperty({ example: 'key_2346789acdefhknrtvz2346789acdef' })
  keyId: string;

  @ApiProperty({ example: CID_EXAMPLE })
  chainOpCID: string;
}

export class DeclinedKeyProof {
  @ApiProperty({ enum: ['rejected'] })
  status: 'rejected';
}

// ---- key-proof routes (api-spec.md "Key-proof documents") ----

export class KeyProofCodeQuery {
  @ApiProperty({ example: CODE_EXAMPLE, description: 'the eight-character ceremony code' })
  @IsString()
  @MaxLength(64)
  code: string;
}

export class KeyProofAdopts {
  @ApiProperty({ example: DID_EXAMPLE })
  did: string;

  @ApiProperty({ type: String, nullable: true, example: 'alice' })
  handle: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Alice' })
  displayName: string | null;
}

export class KeyProofResolution {
  @ApiProperty({ example: 'https://api.example.com/v1/key-proof/present' })
  present: string;

  @ApiProperty({ example: 'q3Xr8vYb2m0Hc1e9Tt5w0g' })
  nonce: string;

  @ApiProperty({ example: 'api.example.com', description: 'this API’s host' })
  audience: string;

  @ApiProperty({ example: 'did:plat:key-add' })
  purpose: string;

  @ApiProperty({ type: KeyProofAdopts })
  adopts: KeyProofAdopts;

  @ApiProperty({ example: 'auth,assert' })
  roleSet: string;

  @ApiProperty({ example: CID_EXAMPLE })
  prevCID: string;

  @ApiProperty({ example: '2026-03-01T12:10:00.000Z' })
  expiresAt: string;

  @ApiProperty({ example: 'https://api.example.com/relay' })
  relay: string;
}

export class KeyProofResolutionNotFound {
  @ApiProperty({ example: 'unknown or expired code' })
  error: string;
}

export class PresentKeyProofRequest {
  @ApiProperty({ example: CODE_EXAMPLE })
  @IsString()
  @MaxLength(64)
  code: string;

  @ApiProperty({ description: 'compact JWS, typ did:plat:key-add, at most 4096 bytes' })
  @IsString()
  @MaxLength(8192)
  envelope: string;

  @ApiPropertyOptional({ example: 'laptop', description: 'not signed; default "CLI signing key"' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;
}

export class PresentedKeyProof {
  @ApiProperty({ enum: ['presented'] })
  status: 'presented';

  @ApiProperty({ type: KeyProofAdopts })
  adopts: KeyProofAdopts;

  @ApiProperty({ example: '2026-03-01T12:10:00.000Z' })
  expiresAt: string;
}

export class KeyProofOnAdopted {
  @ApiProperty({ example: DID_EXAMPLE })
  did: string;

  @ApiProperty({ example: 'key_2346789acdefhknrtvz2346789acdef', description: 'DID URL: <did>#<keyId>' })
  keyId: string;

  @ApiProperty({ example: CID_EXAMPLE })
  chainOpCID: string;
}

export class KeyProofStatus {
  @ApiProperty({ enum: STATUS_VALUES, example: 'adopted' })
  status: string;

  @ApiProperty()
  stale: boolean;

  @ApiPropertyOptional({ type: KeyProofOnAdopted, description: 'only while the ten minutes run' })
  onAdopted?: KeyProofOnAdopted;
}
