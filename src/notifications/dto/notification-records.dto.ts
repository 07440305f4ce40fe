import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { ApiExtraModels, ApiProperty, getSchemaPath, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { DID_PATTERN } from '../../spaces';

const DID_EXAMPLE = 'did:plat:2346789acdefhknrtvz2346789acdef';
const DID_MESSAGE = 'spaceDID must be a space DID (did:plat:…)';

export class NotificationsQuery extends PaginationQueryDto {
  @ApiPropertyOptional({ example: DID_EXAMPLE, description: 'only the notifications of this space' })
  @IsOptional()
  @IsString({ message: DID_MESSAGE })
  @Matches(DID_PATTERN, { message: DID_MESSAGE })
  spaceDID?: string;
}

export class MarkAllReadRequest {
  @ApiPropertyOptional({ example: DID_EXAMPLE, description: 'only the notifications of this space' })
  @IsOptional()
  @IsString({ message: DID_MESSAGE })
  @Matches(DID_PATTERN, { message: DID_MESSAGE })
  spaceDID?: string;
}

export class NotificationPerson {
  @ApiProperty({ example: DID_EXAMPLE })
  did: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'the display name, else the handle, as it was when the activity happened; null without an account',
  })
  displayName: string | null;
}

/** A post of a `post` aggregation. */
export class NotificationPost {
  @ApiProperty({ example: 'post_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty({ type: String, nullable: true, description: 'the card’s displayTitle' })
  title: string | null;

  @ApiProperty({ type: NotificationPerson })
  createdBy: NotificationPerson;
}

export class NotificationSpace {
  @ApiProperty({ example: 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty({ example: DID_EXAMPLE })
  did: string;

  @ApiProperty({ type: String, nullable: true })
  displayName: string | null;
}

export class NotificationPreview {
  @ApiProperty({ description: 'what the activity is about: a member DID, an application id, a webhook id' })
  id: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: NotificationPerson })
  createdBy: NotificationPerson;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class NotificationScope {
  @ApiProperty({ example: 'member', description: 'member, application or webhook (more with later kinds)' })
  type: string;

  @ApiProperty({ type: NotificationPreview })
  preview: NotificationPreview;
}

@ApiExtraModels(NotificationPerson, NotificationPost)
export class NotificationAggregation {
  @ApiProperty({ enum: ['identity', 'post'] })
  type: 'identity' | 'post';

  @ApiProperty({
    type: 'array',
    items: {
      oneOf: [{ $ref: getSchemaPath(NotificationPerson) }, { $ref: getSchemaPath(NotificationPost) }],
    },
    description: 'the most recent ones (at most 5): people (identity) or posts (post)',
  })
  items: (NotificationPerson | NotificationPost)[];

  @ApiProperty()
  totalCount: number;
}

export class NotificationRecord {
  @ApiProperty({ example: 'notification_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty({ example: 'notify.member.joined' })
  type: string;

  @ApiProperty({ type: NotificationSpace })
  space: NotificationSpace;

  @ApiProperty({ enum: ['unread', 'read'] })
  readState: 'unread' | 'read';

  @ApiProperty({ type: NotificationScope })
  scope: NotificationScope;

  @ApiProperty({ type: NotificationAggregation, nullable: true })
  aggregation: NotificationAggregation | null;

  @ApiProperty({ format: 'date-time' })
  firstActivityAt: string;

  @ApiProperty({ format: 'date-time' })
  lastActivityAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastReadAt: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class NotificationPage extends PageEnvelope {
  @ApiProperty({ type: [NotificationRecord] })
  items: NotificationRecord[];

  @ApiProperty()
  totalCount: number;
}

export class NotificationStatusRecord {
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastActivityAt: string | null;

  @ApiProperty({ type: String, nullable: true })
  lastNotificationId: string | null;

  @ApiProperty()
  unreadCount: number;
}

export class MarkAllReadResult {
  @ApiProperty({ description: 'notifications that were unread' })
  markedCount: number;
}

export class SpaceNotificationCount {
  @ApiProperty({ type: NotificationSpace })
  space: NotificationSpace;

  @ApiProperty()
  unreadCount: number;

  @ApiProperty({ format: 'date-time' })
  lastNotifiedAt: string;
}

export class SpaceNotificationCounts {
  @ApiProperty({ type: [SpaceNotificationCount] })
  items: SpaceNotificationCount[];

  @ApiProperty()
  totalUnreadCount: number;
}
