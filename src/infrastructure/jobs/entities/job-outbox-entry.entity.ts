import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A job a write caused, recorded in the write's own transaction (JobOutbox) and handed to the queue
 * after commit and by the sweep until it has run: deleted by the job once its handler succeeded.
 * docs/decisions/0125-no-background-work-lost.md.
 */
@Entity({ name: 'job_outbox' })
@Index('idx_job_outbox_handoff', ['handoffAt'])
export class JobOutboxEntry {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  /** The job's kind (its name on the queue). */
  @Column({ type: 'varchar', length: 100 })
  kind: string;

  @Column({ type: 'jsonb' })
  data: unknown;

  /** The queue's deduplication id; null: `outbox-<id>`. */
  @Column({ name: 'job_id', type: 'varchar', length: 200, nullable: true })
  jobId: string | null;

  /** The W3C trace context of the write, so the job continues its trace. */
  @Column({ type: 'jsonb', nullable: true })
  trace: Record<string, string> | null;

  /** When the job is due (the write's time plus the kind's delay). */
  @Column({ name: 'run_at', type: 'timestamptz' })
  runAt: Date;

  /** When the sweep hands it on (again) if it is still here: a lease past the last hand-off. */
  @Column({ name: 'handoff_at', type: 'timestamptz' })
  handoffAt: Date;

  /** Hand-offs by the sweep (the one after commit not counted). */
  @Column({ type: 'integer', default: 0 })
  handoffs: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
