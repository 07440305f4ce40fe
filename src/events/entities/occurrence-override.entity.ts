import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/** One occurrence's own cover or its cancellation (`PUT …/occurrences/{recurrenceId}`). */
@Entity({ name: 'event_occurrence_overrides' })
export class OccurrenceOverride {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  @ForeignKey('events', { onDelete: 'CASCADE' })
  eventId: string;

  @PrimaryColumn({ name: 'recurrence_id', type: 'varchar', length: 19, collation: 'C' })
  recurrenceId: string;

  @Column({ name: 'cover_media_id', type: 'uuid', nullable: true })
  coverMediaId: string | null;

  @Column({ type: 'boolean', default: false })
  canceled: boolean;
}
