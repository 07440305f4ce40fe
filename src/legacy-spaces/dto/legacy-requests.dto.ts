import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  SpaceIdBody,
  APPLICATION_STATUSES,
  ApplicationStatus,
  JOIN_MODE_OVERRIDES,
  JoinModeOverride,
  LIMITS,
} from '../../spaces';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { NestedRecords } from '../../common/validation/nested-records';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateInviteRequest extends SpaceIdBody {
  @ApiPropertyOptional({ minimum: 1, maximum: LIMITS.inviteMaxUses, default: LIMITS.inviteMaxUses })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(LIMITS.inviteMaxUses)
  maxUses?: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: LIMITS.inviteExpiresInMinutes,
    default: LIMITS.inviteExpiresInMinutes,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(LIMITS.inviteExpiresInMinutes)
  expiresInMinutes?: number;

  @ApiPropertyOptional({ enum: JOIN_MODE_OVERRIDES, default: 'instant' })
  @IsOptional()
  @IsIn(JOIN_MODE_OVERRIDES, { message: `joinModeOverride must be one of ${JOIN_MODE_OVERRIDES.join(', ')}` })
  joinModeOverride?: JoinModeOverride;
}

export class ApplicationResponseInput {
  @ApiProperty({ maxLength: LIMITS.question })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.question)
  question: string;

  @ApiProperty({ maxLength: LIMITS.response })
  @Transform(trim)
  @IsString()
  @MaxLength(LIMITS.response)
  response: string;
}

export class ApplyRequest extends SpaceIdBody {
  @ApiPropertyOptional({ type: [ApplicationResponseInput], maxItems: LIMITS.questions })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIMITS.questions)
  @NestedRecords(ApplicationResponseInput)
  responses?: ApplicationResponseInput[];
}

/** Joining through an invite; `responses` is the application when the invite forces that flow. */
export class JoinByCodeRequest {
  @ApiPropertyOptional({ description: 'when sent, must equal the code in the path' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  code?: string;

  @ApiPropertyOptional({ type: [ApplicationResponseInput], maxItems: LIMITS.questions })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIMITS.questions)
  @NestedRecords(ApplicationResponseInput)
  responses?: ApplicationResponseInput[];
}

export class ApplicationQuestionInput {
  @ApiProperty({ minLength: 1, maxLength: LIMITS.question })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(LIMITS.question)
  question: string;

  @ApiProperty()
  @IsBoolean()
  isRequired: boolean;
}

export class ApplicationSettingsRequest extends SpaceIdBody {
  @ApiProperty({ type: [ApplicationQuestionInput], maxItems: LIMITS.questions })
  @IsArray()
  @ArrayMaxSize(LIMITS.questions, { message: `questions must contain at most ${LIMITS.questions} questions` })
  @NestedRecords(ApplicationQuestionInput)
  questions: ApplicationQuestionInput[];
}

export class DecideApplicationRequest {
  @ApiPropertyOptional({
    example: 'application_0190f1a2b3c4d5e6f708192a3b4c5d6e',
    description: 'when sent, must equal the id in the path',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  applicationId?: string;
}

export class ApplicationsQuery extends PaginationQueryDto {
  @ApiPropertyOptional({ enum: APPLICATION_STATUSES, default: 'pending' })
  @IsOptional()
  @IsIn(APPLICATION_STATUSES, { message: `status must be one of ${APPLICATION_STATUSES.join(', ')}` })
  status?: ApplicationStatus;
}
