import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { PublicProfileResponse } from './account.dto';

/** At most this many pins per user (the single fetch embeds every pin, so pins stay bounded). */
export const MAX_PINS = 20;
export const MAX_PIN_MESSAGE = 280;
const SPACE_ID = /^space_[0-9a-f]{32}$/;
const SPACE_ID_EXAMPLE = 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e';
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** PUT /profile/pins: the complete pinned list in the wanted order (an empty list unpins all). */
export class ReplacePinsRequest {
  @ApiProperty({ type: [String], maxItems: MAX_PINS, example: [SPACE_ID_EXAMPLE] })
  @IsArray()
  @ArrayMaxSize(MAX_PINS)
  @ArrayUnique({ message: 'spaceIds must not repeat a space' })
  @IsString({ each: true })
  @Matches(SPACE_ID, { each: true, message: 'each of spaceIds must be a space id' })
  spaceIds: string[];
}

/** PUT /spaces/{id}/pin: omitted keeps the message, null or blank clears it. */
export class PinSpaceRequest {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_PIN_MESSAGE })
  @IsOptional()
  @ValidateIf((_body: object, value: unknown) => value !== null)
  @Transform(trim)
  @IsString()
  @MaxLength(MAX_PIN_MESSAGE)
  pinMessage?: string | null;
}

/** api-spec.md "User public space item": no role, member number or join date. */
export class UserSpaceItem {
  @ApiProperty({ example: SPACE_ID_EXAMPLE })
  id: string;

  @ApiProperty()
  did: string;

  @ApiProperty()
  domain: string;

  @ApiProperty({ type: String, nullable: true })
  displayName: string | null;

  @ApiProperty({ type: String, nullable: true })
  avatarUrl: string | null;

  @ApiProperty({ example: 'about 20 members' })
  memberCountSummary: string;

  @ApiProperty()
  pinned: boolean;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'present on pinned items only (null when none); absent on unpinned ones',
  })
  pinMessage?: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  pinnedAt: string | null;
}

export class PinsResponse {
  @ApiProperty({ type: [UserSpaceItem] })
  pinned: UserSpaceItem[];
}

/** A pinned space on a directory row. */
export class PinnedSpaceCard {
  @ApiProperty()
  did: string;

  @ApiProperty()
  domain: string;

  @ApiProperty({ type: String, nullable: true })
  displayName: string | null;

  @ApiProperty({ type: String, nullable: true })
  avatarUrl: string | null;
}

/** A row of GET /v1/users: the public profile without `protocol`, with `pinnedSpaces`. */
export class UserDirectoryItem extends PublicProfileResponse {
  @ApiProperty({ type: [PinnedSpaceCard] })
  pinnedSpaces: PinnedSpaceCard[];
}

/** GET /v1/users/{user}: the public profile with every pinned space, then up to 20 more. */
export class UserProfileResponse extends PublicProfileResponse {
  @ApiProperty({ type: [UserSpaceItem] })
  spaces: UserSpaceItem[];
}

export class UserDirectoryListing extends PageEnvelope {
  @ApiProperty({ type: [UserDirectoryItem] })
  items: UserDirectoryItem[];
}

export class UserSpaceListing extends PageEnvelope {
  @ApiProperty({ type: [UserSpaceItem] })
  items: UserSpaceItem[];
}
