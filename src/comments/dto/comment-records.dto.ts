import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MediaObject } from '../../media';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { AuthorRecord } from '../../users';

export class CommentViewer {
  @ApiProperty({ description: 'whether the caller has upvoted this comment' })
  upvoted: boolean;
}

/** A comment as the create route answers it: the listing shape minus `activityAt`. */
export class CreatedComment {
  @ApiProperty({ example: 'comment_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e' })
  id: string;

  @ApiProperty({ example: 'post_0190f6a8c5a87b3c9d1e2f3a4b5c6d7e' })
  postId: string;

  @ApiPropertyOptional({ description: 'the root comment this one replies to; absent on a root' })
  parentCommentId?: string;

  @ApiProperty({
    type: AuthorRecord,
    description: 'the Author shape, kept on a deleted comment; only `did` while the author is deactivated',
  })
  author: AuthorRecord;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'markdown; null for a deleted comment or one carrying only attachments',
  })
  body: string | null;

  @ApiProperty({ type: [MediaObject], description: 'media objects in the order given, always present' })
  attachments: MediaObject[];

  @ApiProperty({ format: 'date-time' })
  publishedAt: string;

  @ApiProperty({ minimum: 0 })
  upvoteCount: number;

  @ApiProperty({ minimum: 0, description: 'always 0 on a reply' })
  replyCount: number;

  @ApiProperty({ type: CommentViewer })
  viewer: CommentViewer;
}

/** api-spec.md "Comment". */
export class CommentItem extends CreatedComment {
  @ApiProperty({
    format: 'date-time',
    description: 'on a root, the later of its publication and latest reply; on a reply, its publishedAt',
  })
  activityAt: string;
}

export class CommentListing extends PageEnvelope {
  @ApiProperty({ type: [CommentItem] })
  items: CommentItem[];
}

export class CommentDeletion {
  @ApiProperty({ enum: [true] })
  deleted: true;
}

export class CommentUpvoteState {
  @ApiProperty()
  upvoted: boolean;

  @ApiProperty({ minimum: 0 })
  upvoteCount: number;
}
