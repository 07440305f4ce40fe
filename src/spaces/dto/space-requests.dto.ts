import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import {
  ASSIGNABLE_ROLES,
  AssignableRole,
  DOMAIN_PATTERN,
  LEGACY_JOIN_MODES,
  LegacyJoinMode,
  LIMITS,
} from '../domain/space-rules';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Optional, but never null: an absent member is skipped, a null one fails the rules that follow. */
export const Present = () => ValidateIf((_object: object, value: unknown) => value !== undefined);
const MEDIA_ID = /^media_[0-9a-f]{32}$/;
const SPACE_ID_EXAMPLE = 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e';
const MEDIA_ID_EXAMPLE = 'media_0190f1a2b3c4d5e6f708192a3b4c5d6e';
const DID_EXAMPLE = 'did:plat:2346789acdefhknrtvz2346789acdef';

/** Bodies that repeat the path's space id: optional, but when sent it must equal the path's. */
export class SpaceIdBody {
  @ApiPropertyOptional({ example: SPACE_ID_EXAMPLE, description: 'when sent, must equal the id in the path' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  id?: string;
}

export class CreateSpaceRequest {
  @ApiProperty({ minLength: 1, maxLength: LIMITS.displayName })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.displayName)
  displayName: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: LIMITS.description })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(LIMITS.description)
  description?: string | null;
}

/** Omitted members stay as they are; null clears description and images. At least one member. */
export class UpdateSpaceRequest extends SpaceIdBody {
  @ApiPropertyOptional({ minLength: 1, maxLength: LIMITS.displayName, description: 'never null' })
  @Present()
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.displayName)
  displayName?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: LIMITS.description })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: MEDIA_ID_EXAMPLE })
  @IsOptional()
  @IsString()
  @Matches(MEDIA_ID, { message: 'avatarId must be a media id' })
  avatarId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: MEDIA_ID_EXAMPLE,
    description: 'header image',
  })
  @IsOptional()
  @IsString()
  @Matches(MEDIA_ID, { message: 'bannerId must be a media id' })
  bannerId?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: MEDIA_ID_EXAMPLE })
  @IsOptional()
  @IsString()
  @Matches(MEDIA_ID, { message: 'backgroundId must be a media id' })
  backgroundId?: string | null;
}

export class PublicConfigRequest extends SpaceIdBody {
  @ApiProperty()
  @IsBoolean()
  isPublic: boolean;

  @ApiProperty({ enum: LEGACY_JOIN_MODES, description: 'open requires isPublic true' })
  @IsIn(LEGACY_JOIN_MODES, { message: `joinMode must be one of ${LEGACY_JOIN_MODES.join(', ')}` })
  joinMode: LegacyJoinMode;
}

export class ClaimDomainRequest extends SpaceIdBody {
  @ApiProperty({ minLength: 3, maxLength: 63, pattern: DOMAIN_PATTERN.source, example: 'makers' })
  @IsString()
  @Matches(DOMAIN_PATTERN, {
    message: 'domain must be 3-63 characters: lowercase letters, digits and inner hyphens',
  })
  domain: string;
}

/** Bodies that repeat the path's member DID as `memberId`. */
export class MemberIdBody extends SpaceIdBody {
  @ApiPropertyOptional({ example: DID_EXAMPLE, description: 'when sent, must equal the DID in the path' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  memberId?: string;
}

export class ChangeRoleRequest extends MemberIdBody {
  @ApiProperty({ enum: ASSIGNABLE_ROLES })
  @IsIn(ASSIGNABLE_ROLES, { message: `role must be one of ${ASSIGNABLE_ROLES.join(', ')}` })
  role: AssignableRole;
}

export class BanRequest extends MemberIdBody {}

export class PersonalStatusRequest extends SpaceIdBody {
  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: LIMITS.statusMessage,
    description: 'null or empty clears it',
  })
  @ValidateIf((body: PersonalStatusRequest) => body.status !== null)
  @Transform(trim)
  @IsString()
  @MaxLength(LIMITS.statusMessage)
  status: string | null;
}
