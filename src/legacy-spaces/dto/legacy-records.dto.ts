import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import {
  ApplicationQuestionRecord,
  APPLICATION_STATUSES,
  ApplicationStatus,
  JOIN_MODE_OVERRIDES,
  JoinModeOverride,
} from '../../spaces';
import { ApiProperty } from '@nestjs/swagger';

const DID = '^did:plat:[2346789acdefhknrtvz]{31}$';

/** Invite record (api-spec.md "Legacy namespaces: records"). */
export class InviteRecord {
  @ApiProperty({ example: 'space_invite_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  inviteId: string;

  @ApiProperty({ description: 'URL-safe code for GET /spaces/invites/{code} and POST /spaces/join/{code}' })
  inviteCode: string;

  @ApiProperty()
  spaceId: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiProperty({ minimum: 0 })
  usesRemaining: number;

  @ApiProperty({ minimum: 1, maximum: 1000 })
  maxUses: number;

  @ApiProperty({ enum: JOIN_MODE_OVERRIDES })
  joinModeOverride: JoinModeOverride;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class InviteMediaRecord {
  @ApiProperty()
  url: string;

  @ApiProperty({ type: Number, nullable: true })
  width: number | null;

  @ApiProperty({ type: Number, nullable: true })
  height: number | null;
}

export class InviteUserStatusRecord {
  @ApiProperty({ description: 'false for an anonymous caller' })
  isMember: boolean;
}

/** Invite preview (api-spec.md "Legacy namespaces: records"); served to anyone holding the code. */
export class InvitePreviewRecord {
  @ApiProperty()
  spaceId: string;

  @ApiProperty({ pattern: DID })
  spaceDID: string;

  @ApiProperty()
  domain: string;

  @ApiProperty({ type: String, nullable: true })
  displayName: string | null;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: InviteMediaRecord, nullable: true })
  avatar: InviteMediaRecord | null;

  @ApiProperty({ type: InviteMediaRecord, nullable: true })
  banner: InviteMediaRecord | null;

  @ApiProperty({ minimum: 0 })
  memberCount: number;

  @ApiProperty()
  isPublic: boolean;

  @ApiProperty({ enum: ['instant', 'application'], description: 'how this invite admits' })
  effectiveJoinMode: string;

  @ApiProperty({
    type: [ApplicationQuestionRecord],
    nullable: true,
    description: 'when the invite admits through an application and questions are configured',
  })
  applicationQuestions: ApplicationQuestionRecord[] | null;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;

  @ApiProperty({ type: InviteUserStatusRecord })
  userStatus: InviteUserStatusRecord;
}

export class ApplicationResponseRecord {
  @ApiProperty()
  question: string;

  @ApiProperty()
  response: string;
}

/** Application status (api-spec.md "Legacy namespaces: records"), with what the admins decide on. */
export class ApplicationRecord {
  @ApiProperty({ example: 'application_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  applicationId: string;

  @ApiProperty()
  spaceId: string;

  @ApiProperty({ pattern: DID })
  applicantDid: string;

  @ApiProperty({ enum: APPLICATION_STATUSES })
  status: ApplicationStatus;

  @ApiProperty({ type: [ApplicationResponseRecord] })
  responses: ApplicationResponseRecord[];

  @ApiProperty({ format: 'date-time' })
  submittedAt: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  decidedAt: string | null;
}

export class ApplicationSettingsRecord {
  @ApiProperty({ type: [ApplicationQuestionRecord], maxItems: 5 })
  questions: ApplicationQuestionRecord[];
}

export class ApplicationPage extends PageEnvelope {
  @ApiProperty({ type: [ApplicationRecord] })
  items: ApplicationRecord[];
}
