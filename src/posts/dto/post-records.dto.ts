import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { AuthorRecord } from '../../users';
import { MediaObject } from '../../media';

const DID = '^did:plat:[2346789acdefhknrtvz]{31}$';
const POST_ID_EXAMPLE = 'post_0190f1a2b3c4d5e6f708192a3b4c5d6e';
const OPEN_ENUM = 'open enum: treat unknown values as opaque';

export class PostViewerRecord {
  @ApiProperty()
  upvoted: boolean;
}

export class PostProtocolRecord {
  @ApiProperty()
  contentId: string;

  @ApiProperty()
  headOpCid: string;
}

/** api-spec.md "Post card (listing item)". */
export class PostCard {
  @ApiProperty({ example: POST_ID_EXAMPLE })
  id: string;

  @ApiProperty({ description: 'server-generated; mutable alias' })
  slug: string;

  @ApiProperty({ enum: ['short-post', 'long-post'], description: OPEN_ENUM })
  format: string;

  @ApiProperty({ type: String, nullable: true })
  title: string | null;

  @ApiProperty({ type: String, nullable: true })
  displayTitle: string | null;

  @ApiProperty({ type: String, nullable: true })
  excerpt: string | null;

  @ApiProperty({
    type: AuthorRecord,
    nullable: true,
    description: 'null while the author’s identity is deactivated (its chain’s head a delete)',
  })
  author: AuthorRecord | null;

  @ApiPropertyOptional({ type: MediaObject })
  cover?: MediaObject;

  @ApiProperty({ type: 'integer', minimum: 0 })
  upvoteCount: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  commentCount: number;

  @ApiProperty()
  isPinned: boolean;

  @ApiProperty({ format: 'date-time' })
  publishedAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiPropertyOptional({ description: 'public permalink: space public host plus /post/{slug}-{id}' })
  canonicalUri?: string;

  @ApiPropertyOptional({ type: PostProtocolRecord, description: 'absent until the content chain exists' })
  protocol?: PostProtocolRecord;

  @ApiPropertyOptional({ type: PostViewerRecord, description: 'only on a member projection' })
  viewer?: PostViewerRecord;
}

export class PostTopicRecord {
  @ApiProperty({ example: 'topic_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty()
  name: string;
}

export class LinkCardRecord {
  @ApiProperty()
  url: string;

  @ApiProperty({ type: String, nullable: true })
  title: string | null;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true })
  siteName: string | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  sortOrder: number;

  @ApiPropertyOptional()
  imageUrl?: string;

  @ApiPropertyOptional()
  faviconUrl?: string;
}

export class EntityLinkRecord {
  @ApiProperty()
  url: string;

  @ApiProperty()
  label: string;

  @ApiProperty({ enum: ['post', 'space', 'event'], description: OPEN_ENUM })
  kind: string;
}

/** api-spec.md "Full post". */
export class FullPost extends PostCard {
  @ApiProperty({ type: String, nullable: true, description: 'markdown above the fold' })
  body: string | null;

  @ApiProperty({ type: [MediaObject] })
  attachments: MediaObject[];

  @ApiProperty({ type: [MediaObject] })
  bodyMedia: MediaObject[];

  @ApiProperty({ type: [PostTopicRecord] })
  topics: PostTopicRecord[];

  @ApiPropertyOptional({ description: 'present and true only when a fold marker truncated the body' })
  folded?: boolean;

  @ApiPropertyOptional({ type: [LinkCardRecord], description: 'only when the body has bare URLs' })
  links?: LinkCardRecord[];

  @ApiPropertyOptional({ type: [EntityLinkRecord], description: 'only when internal links resolve' })
  entityLinks?: EntityLinkRecord[];
}

/** api-spec.md "Space call-to-action (compact context)". */
export class SpaceCallToAction {
  @ApiProperty({ type: String, nullable: true })
  displayName: string | null;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true })
  avatarUrl: string | null;

  @ApiProperty()
  domain: string;

  @ApiProperty({ enum: ['closed', 'open', 'application', 'allowlist'], description: OPEN_ENUM })
  joinMode: string;

  @ApiProperty()
  subscribeEnabled: boolean;

  @ApiProperty({ example: 'dozens of members', description: 'worded, never exact' })
  memberCountSummary: string;
}

export class EligiblePostResponse {
  @ApiProperty({ enum: ['eligible'] })
  state: 'eligible';

  @ApiProperty({ type: FullPost })
  post: FullPost;

  @ApiProperty({ type: SpaceCallToAction })
  space: SpaceCallToAction;
}

export class GatedPostResponse {
  @ApiProperty({ enum: ['gated'] })
  state: 'gated';

  @ApiProperty({ enum: ['signIn', 'spaceMembers', 'restricted'], description: OPEN_ENUM })
  reason: string;

  @ApiProperty({ type: SpaceCallToAction })
  space: SpaceCallToAction;
}

export type PostResponse = EligiblePostResponse | GatedPostResponse;

/** The schema of the union, for the controller's response decorator. */
export const POST_RESPONSE_SCHEMA = {
  oneOf: [{ $ref: getSchemaPath(EligiblePostResponse) }, { $ref: getSchemaPath(GatedPostResponse) }],
  discriminator: { propertyName: 'state' },
};

@ApiExtraModels(EligiblePostResponse, GatedPostResponse)
export class PostListing extends PageEnvelope {
  @ApiProperty({ type: [PostCard] })
  items: PostCard[];

  @ApiPropertyOptional({
    type: 'integer',
    description:
      'every post under the filters; omitted when publishedAfter or publishedBefore is given and more than 1000 posts fall in that range',
  })
  totalCount?: number;
}

export class FeedSpaceRecord {
  @ApiProperty({ example: 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty({ pattern: DID })
  did: string;

  @ApiProperty({ type: String, nullable: true })
  name: string | null;

  @ApiProperty({ description: 'canonical public web address' })
  url: string;
}

export class FeedCard extends PostCard {
  @ApiProperty({ type: FeedSpaceRecord })
  space: FeedSpaceRecord;
}

export class FeedListing extends PageEnvelope {
  @ApiProperty({ type: [FeedCard] })
  items: FeedCard[];
}

export class DeletedPostResponse {
  @ApiProperty({ enum: [true] })
  deleted: true;
}

export class UpvoteResponse {
  @ApiProperty()
  upvoted: boolean;

  @ApiProperty({ type: 'integer', minimum: 0 })
  upvoteCount: number;
}
