import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { ProfileLinkDto, ProfileLinkInput } from '../../common/dto/profile-link.dto';
import { NestedRecords } from '../../common/validation/nested-records';

export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9-]{1,28}[a-z0-9]$/;
const HANDLE_MESSAGE = 'handle must be 3-30 characters: lowercase letters, digits and inner hyphens';
/** Optional but not nullable: an omitted member is skipped, `null` fails the member's rules (400). */
const Present = () => ValidateIf((_body: object, value: unknown) => value !== undefined);
const lowerCase = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.toLowerCase() : value;

export class CreateAccountRequest {
  @ApiProperty({ pattern: HANDLE_PATTERN.source, example: 'alice' })
  @Transform(lowerCase)
  @IsString()
  @Matches(HANDLE_PATTERN, { message: HANDLE_MESSAGE })
  handle: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  displayName?: string;
}

export class UpdateProfileRequest {
  @ApiPropertyOptional({ pattern: HANDLE_PATTERN.source })
  @Present()
  @Transform(lowerCase)
  @IsString()
  @Matches(HANDLE_PATTERN, { message: HANDLE_MESSAGE })
  handle?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  displayName?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  bio?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'media_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  @IsOptional()
  @IsString()
  @Matches(/^media_[0-9a-f]{32}$/, { message: 'avatarId must be a media id' })
  avatarId?: string | null;

  @ApiPropertyOptional({ type: [ProfileLinkInput], maxItems: 20 })
  @Present()
  @IsArray()
  @ArrayMaxSize(20)
  @NestedRecords(ProfileLinkInput)
  links?: ProfileLinkInput[];

  @ApiPropertyOptional()
  @Present()
  @IsBoolean()
  isPublic?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'email' })
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string | null;
}

export class ProtocolProfileRef {
  @ApiProperty()
  contentId: string;

  @ApiProperty()
  headOpCid: string;
}

export class ProtocolBlock {
  @ApiProperty()
  headOpCid: string;

  @ApiPropertyOptional({ type: ProtocolProfileRef })
  profile?: ProtocolProfileRef;
}

/** The public profile (api-spec.md "User profile (public)"). */
export class PublicProfileResponse {
  @ApiProperty({ example: 'identity_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty({ pattern: '^did:plat:[2346789acdefhknrtvz]{31}$' })
  did: string;

  @ApiProperty()
  handle: string;

  @ApiProperty({ type: String, nullable: true })
  displayName: string | null;

  @ApiProperty({ type: String, nullable: true })
  avatarUrl: string | null;

  @ApiProperty({ type: String, nullable: true })
  bio: string | null;

  @ApiProperty({ type: [ProfileLinkDto] })
  links: ProfileLinkDto[];

  @ApiProperty({ type: String, nullable: true })
  verifiedDomain: string | null;

  @ApiPropertyOptional({ type: ProtocolBlock, description: 'absent when the identity has no chain' })
  protocol?: ProtocolBlock;
}

/** The caller's own profile (GET /v1/profile); `email` only with read:email or a bare identity proof. */
export class OwnProfileResponse extends PublicProfileResponse {
  @ApiProperty()
  isPublic: boolean;

  @ApiPropertyOptional({ type: String, nullable: true })
  email?: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

/** DELETE /profile: the caller names their own handle, so an erasure is never requested by mistake. */
export class EraseProfileRequest {
  @ApiProperty({ description: "The caller's handle, as a confirmation", example: 'alice' })
  @IsString()
  @MaxLength(30)
  confirmHandle: string;
}

/** The answer of DELETE /profile (202): when the erasure is due; POST /profile/restore cancels it until then. */
export class ErasureScheduledResponse {
  @ApiProperty({ format: 'date-time' })
  erasureScheduledAt: string;
}
