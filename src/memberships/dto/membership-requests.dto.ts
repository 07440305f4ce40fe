import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { GROUP_COLORS, GROUP_LIMITS, MEMBERSHIP_ROLES, MembershipRole } from '../domain/group-rules';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const toList = ({ value }: { value: unknown }) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];
const ROLE_MESSAGE = `role must be one of ${MEMBERSHIP_ROLES.join(', ')}`;

// ---------------------------------------------------------------------------------------------
// GET /v1/memberships, GET /v1/group-memberships

export class MembershipsQuery extends PaginationQueryDto {
  @ApiPropertyOptional({
    type: [String],
    enum: MEMBERSHIP_ROLES,
    description: 'repeatable (role=owner&role=admin); a membership with any of the roles is listed',
  })
  @IsOptional()
  @Transform(toList)
  @IsIn(MEMBERSHIP_ROLES, { each: true, message: ROLE_MESSAGE })
  role?: MembershipRole[];

  /** Not a filter of this listing (api-spec.md: a `space` parameter is 400). */
  @ValidateIf((query: MembershipsQuery) => query.space !== undefined)
  @IsIn([], { message: 'space is not a filter of this listing; use GET /v1/membership/{space}' })
  space?: unknown;
}

export class GroupMembershipsQuery extends PaginationQueryDto {
  @ApiPropertyOptional({
    type: [String],
    enum: MEMBERSHIP_ROLES,
    description: 'repeatable; the person’s role in the group’s space, any of them',
  })
  @IsOptional()
  @Transform(toList)
  @IsIn(MEMBERSHIP_ROLES, { each: true, message: ROLE_MESSAGE })
  role?: MembershipRole[];

  @ApiPropertyOptional({
    maxLength: 1024,
    description:
      'only groups of this space (subdomain, id or DID); an unjoined or unknown space lists nothing',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  space?: string;
}

// ---------------------------------------------------------------------------------------------
// POST /spaces/{id}/groups, PUT /spaces/{id}/groups/{groupId}

export class GroupRequest {
  @ApiProperty({ minLength: 1, maxLength: GROUP_LIMITS.name, description: 'trimmed' })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(GROUP_LIMITS.name)
  name: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: GROUP_LIMITS.description,
    description: 'null or blank clears it; omitted on PUT keeps it',
  })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(GROUP_LIMITS.description)
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    enum: GROUP_COLORS,
    description: 'a palette token; null clears it; omitted on PUT keeps it',
  })
  @IsOptional()
  @IsIn(GROUP_COLORS, { message: `color must be one of ${GROUP_COLORS.join(', ')}, or null` })
  color?: string | null;
}
