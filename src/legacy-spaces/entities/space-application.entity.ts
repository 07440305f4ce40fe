import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { ApplicationStatus } from '../../spaces';

export interface StoredApplicationResponse {
  question: string;
  response: string;
}

/** An application to join a space: pending, then approved (a member) or rejected (may reapply). */
@Entity({ name: 'space_applications' })
@Index('uq_space_applications_pending', ['spaceId', 'applicantDid'], {
  unique: true,
  where: `"status" = 'pending'`,
})
@Index('idx_space_applications_queue', ['spaceId', 'status', 'submittedAt', 'id'])
@Index('idx_space_applications_applicant', ['applicantDid', 'spaceId', 'submittedAt'])
export class SpaceApplication {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /** A foreign key to the spaces module's table by name only: no relation to its entity. */
  @Column({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column({ name: 'applicant_did', type: 'varchar', length: 64 })
  applicantDid: string;

  @Column({ type: 'varchar', length: 16 })
  status: ApplicationStatus;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  responses: StoredApplicationResponse[];

  /** The invite it came through, when the invite forced the application flow. */
  @Column({ name: 'invite_id', type: 'uuid', nullable: true })
  inviteId: string | null;

  @Column({ name: 'submitted_at', type: 'timestamptz', precision: 3 })
  submittedAt: Date;

  @Column({ name: 'decided_at', type: 'timestamptz', precision: 3, nullable: true })
  decidedAt: Date | null;

  @Column({ name: 'decided_by_did', type: 'varchar', length: 64, nullable: true })
  decidedByDid: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
