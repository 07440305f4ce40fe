import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * How far one background fan-out (a post announced to its space) has come: recipients are taken
 * in DID order, `after_did` the last one written. A retried job resumes after it, and a finished
 * one (`done_at`) does nothing, so each recipient is told once.
 */
@Entity({ name: 'notification_fanouts' })
export class NotificationFanout {
  @PrimaryColumn({ type: 'varchar', length: 200 })
  key: string;

  @Column({ name: 'after_did', type: 'varchar', length: 64, nullable: true })
  afterDid: string | null;

  @Column({ name: 'done_at', type: 'timestamptz', precision: 3, nullable: true })
  doneAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
