import { ProfileLinkDto } from '../../common/dto/profile-link.dto';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { ApiProperty } from '@nestjs/swagger';
import { DomainStatus, JOIN_MODES, MEMBER_ROLES, SITE_MODES } from '../domain/space-rules';

const DID = '^did:plat:[2346789acdefhknrtvz]{31}$';

export class ApplicationQuestionRecord {
  @ApiProperty()
  question: string;

  @ApiProperty()
  isRequired: boolean;
}

/** The legacy space record: what members and admins manage. */
export class SpaceRecord {
  @ApiProperty({ example: 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty({ pattern: DID })
  did: string;

  @ApiProperty({ description: 'claimed subdomain, else space-<32 hex>' })
  domain: string;

  @ApiProperty({ type: String, nullable: true })
  displayName: string | null;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'media id' })
  avatarId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'media id of the header image' })
  bannerId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'media id' })
  backgroundId: string | null;

  @ApiProperty({ type: [ProfileLinkDto] })
  links: ProfileLinkDto[];

  @ApiProperty()
  isPublic: boolean;

  @ApiProperty({ enum: JOIN_MODES, description: 'open enum' })
  joinMode: string;

  @ApiProperty({ enum: SITE_MODES, description: 'open enum' })
  siteMode: string;

  @ApiProperty()
  subscribeEnabled: boolean;

  @ApiProperty({ type: String, nullable: true })
  category: string | null;

  @ApiProperty()
  discoveryOptIn: boolean;

  @ApiProperty({ type: String, nullable: true })
  verifiedDomain: string | null;

  @ApiProperty({ type: [ApplicationQuestionRecord] })
  applicationQuestions: ApplicationQuestionRecord[];

  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    description: 'active members; null for a caller who is not a member',
  })
  memberCount: number | null;

  @ApiProperty({
    type: String,
    nullable: true,
    enum: MEMBER_ROLES,
    description: 'the caller’s role; null when not a member',
  })
  role: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date-time',
    description: 'null for a caller who is not a member',
  })
  lastActivityAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class DomainStatusRecord {
  @ApiProperty({ enum: ['available', 'taken', 'invalid'] })
  status: DomainStatus;
}

/** What a join did: the caller is a member now, or their application is pending. */
export class JoinResultRecord {
  @ApiProperty()
  spaceId: string;

  @ApiProperty({ enum: ['member', 'pending'] })
  status: 'member' | 'pending';

  @ApiProperty({ type: String, nullable: true, enum: MEMBER_ROLES })
  role: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'the pending application' })
  applicationId: string | null;
}

export class MemberRecord {
  @ApiProperty({ pattern: DID })
  did: string;

  @ApiProperty({ enum: MEMBER_ROLES, description: 'open enum' })
  role: string;

  @ApiProperty({ format: 'date-time' })
  joinedAt: string;

  @ApiProperty({ type: String, nullable: true, description: 'personal status message' })
  statusMessage: string | null;
}

export class BanRecord {
  @ApiProperty({ pattern: DID })
  did: string;

  @ApiProperty({ format: 'date-time' })
  bannedAt: string;

  @ApiProperty({ type: String, nullable: true, pattern: DID })
  bannedBy: string | null;
}

/** Viewer relationship (api-spec.md "Legacy namespaces: records"). */
export class ViewerRecord {
  @ApiProperty({ type: String, nullable: true, enum: ['member', 'pending'] })
  status: 'member' | 'pending' | null;

  @ApiProperty({ type: String, nullable: true, enum: MEMBER_ROLES })
  role: string | null;

  @ApiProperty({ description: 'an application would be accepted now' })
  canApply: boolean;

  @ApiProperty()
  isBanned: boolean;
}

export class MemberPage extends PageEnvelope {
  @ApiProperty({ type: [MemberRecord] })
  items: MemberRecord[];
}

export class BanPage extends PageEnvelope {
  @ApiProperty({ type: [BanRecord] })
  items: BanRecord[];
}
