import { ProfileLinkDto } from '../../common/dto/profile-link.dto';
import { MediaObject } from '../../media';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { JOIN_MODES, SITE_MODES, TOPIC_ACCESS_TIERS } from '../domain/space-rules';
import { TopicGroupsAccess } from './site-requests.dto';
import { ApplicationQuestionRecord } from './space-records.dto';

const DID = '^did:plat:[2346789acdefhknrtvz]{31}$';
const SPACE_ID_EXAMPLE = 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e';

export class SpaceProtocolProfile {
  @ApiProperty()
  contentId: string;

  @ApiProperty()
  headOpCid: string;
}

export class SpaceProtocolBlock {
  @ApiProperty({ description: 'head of the space’s identity chain' })
  headOpCid: string;

  @ApiPropertyOptional({ type: SpaceProtocolProfile, description: 'the public profile content chain' })
  profile?: SpaceProtocolProfile;
}

/** Space discovery item (api-spec.md): the listing card; no protocol block. */
export class SpaceCard {
  @ApiProperty({ example: SPACE_ID_EXAMPLE })
  id: string;

  @ApiProperty({ pattern: DID })
  did: string;

  @ApiProperty({ description: 'effective subdomain' })
  domain: string;

  @ApiProperty({ type: String, nullable: true })
  displayName: string | null;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true })
  avatarUrl: string | null;

  @ApiProperty({ type: [ProfileLinkDto] })
  links: ProfileLinkDto[];

  @ApiProperty({ example: 'dozens of members', description: 'worded, never exact' })
  memberCountSummary: string;

  @ApiProperty({ type: String, nullable: true })
  verifiedDomain: string | null;

  @ApiPropertyOptional({ description: 'normalized discovery category; absent when none is filed' })
  category?: string;
}

/** Space (single fetch) of api-spec.md. */
export class PublicSpace {
  @ApiProperty({ example: SPACE_ID_EXAMPLE })
  id: string;

  @ApiProperty({ pattern: DID })
  did: string;

  @ApiProperty({ description: 'effective subdomain: the claimed one, else space-<32 hex>' })
  domain: string;

  @ApiProperty({ type: String, nullable: true })
  displayName: string | null;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true })
  avatarUrl: string | null;

  @ApiProperty({ type: String, nullable: true })
  headerUrl: string | null;

  @ApiProperty({ type: [ProfileLinkDto] })
  links: ProfileLinkDto[];

  @ApiProperty({ enum: JOIN_MODES, description: 'open enum' })
  joinMode: string;

  @ApiProperty({ enum: SITE_MODES, description: 'open enum' })
  siteMode: string;

  @ApiProperty()
  subscribeEnabled: boolean;

  @ApiProperty({ example: 'dozens of members' })
  memberCountSummary: string;

  @ApiPropertyOptional({ example: 'no private posts' })
  privatePostCountSummary?: string;

  @ApiPropertyOptional()
  chatMessageCountSummary?: string;

  @ApiPropertyOptional()
  eventCountSummary?: string;

  @ApiPropertyOptional()
  mediaUploadCountSummary?: string;

  @ApiPropertyOptional({
    type: [ApplicationQuestionRecord],
    description: 'only when joinMode is application and questions are configured',
  })
  applicationQuestions?: ApplicationQuestionRecord[];

  @ApiPropertyOptional({ description: 'normalized discovery category; absent when none is filed' })
  category?: string;

  @ApiProperty({ type: String, nullable: true })
  verifiedDomain: string | null;

  @ApiPropertyOptional({
    type: SpaceProtocolBlock,
    description: 'absent when the space has no identity chain',
  })
  protocol?: SpaceProtocolBlock;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

/** Topic (api-spec.md). */
export class PublicTopic {
  @ApiProperty({ example: 'topic_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;
}

/** Page list item (api-spec.md "Page"). */
export class PublicPageItem {
  @ApiProperty({ example: 'page_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty()
  sortOrder: number;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

/** Full page: `cover` when set, `bodyMedia` the media its `attachment://` tokens name. */
export class PublicPage extends PublicPageItem {
  @ApiProperty({ description: 'markdown; media as attachment://<mediaId>' })
  body: string;

  @ApiPropertyOptional({ type: MediaObject, description: 'a public image: permanent URL' })
  cover?: MediaObject;

  @ApiProperty({
    type: [MediaObject],
    description: 'media of the attachment:// tokens, in order of first appearance',
  })
  bodyMedia: MediaObject[];
}

export class SpaceCardListing extends PageEnvelope {
  @ApiProperty({ type: [SpaceCard] })
  items: SpaceCard[];
}

export class PublicTopicListing extends PageEnvelope {
  @ApiProperty({ type: [PublicTopic] })
  items: PublicTopic[];
}

export class PublicPageListing extends PageEnvelope {
  @ApiProperty({ type: [PublicPageItem] })
  items: PublicPageItem[];
}

// ---------------------------------------------------------------------------------------------
// administration records (design.md §9)

@ApiExtraModels(TopicGroupsAccess)
export class TopicAdminRecord {
  @ApiProperty({ example: 'topic_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty({ example: SPACE_ID_EXAMPLE })
  spaceId: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({
    oneOf: [{ type: 'string', enum: [...TOPIC_ACCESS_TIERS] }, { $ref: getSchemaPath(TopicGroupsAccess) }],
  })
  access: string | TopicGroupsAccess;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class PageAdminRecord {
  @ApiProperty({ example: 'page_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty({ example: SPACE_ID_EXAMPLE })
  spaceId: string;

  @ApiProperty()
  slug: string;

  @ApiProperty()
  title: string;

  @ApiProperty()
  body: string;

  @ApiProperty({ type: String, nullable: true, description: 'media id' })
  coverId: string | null;

  @ApiProperty()
  sortOrder: number;

  @ApiProperty()
  enabled: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class TopicAdminListing extends PageEnvelope {
  @ApiProperty({ type: [TopicAdminRecord] })
  items: TopicAdminRecord[];
}

export class PageAdminListing extends PageEnvelope {
  @ApiProperty({ type: [PageAdminRecord] })
  items: PageAdminRecord[];
}

export const DOMAIN_CHECK_OUTCOMES = ['verified', 'unverified', 'unreachable'] as const;
export type DomainCheckOutcome = (typeof DOMAIN_CHECK_OUTCOMES)[number];

/** What a domain verification found, and the space's `verifiedDomain` after it. */
export class DomainVerificationRecord {
  @ApiProperty({ example: 'makers.example.org' })
  domain: string;

  @ApiProperty({
    enum: DOMAIN_CHECK_OUTCOMES,
    description:
      'verified: the document names the space’s DID; unverified: the domain answered without naming it; ' +
      'unreachable: no answer in time (a verified domain keeps its value)',
  })
  status: DomainCheckOutcome;

  @ApiProperty({ type: String, nullable: true })
  verifiedDomain: string | null;
}
