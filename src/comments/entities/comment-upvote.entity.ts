import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Comment } from './comment.entity';

/** One person's upvote of one comment. */
@Entity({ name: 'comment_upvotes' })
export class CommentUpvote {
  @PrimaryColumn({ name: 'comment_id', type: 'uuid' })
  commentId: string;

  @PrimaryColumn({ name: 'voter_did', type: 'varchar', length: 64 })
  voterDid: string;

  @ManyToOne(() => Comment, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'comment_id' })
  comment?: Comment;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
