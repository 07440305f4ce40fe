import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * A materialized occurrence of a public event (design.md §12 "Speed"): canceled ones and those of
 * non-public events are absent. Rows cover the occurrences overlapping the horizon of
 * `event_occurrence_horizon`; a listing inside it is one range scan in (start, event, recurrenceId).
 */
@Entity({ name: 'event_occurrences' })
@Index('idx_event_occurrences_order', ['startsAt', 'eventId', 'recurrenceId'])
@Index('idx_event_occurrences_space_order', ['spaceId', 'startsAt', 'eventId', 'recurrenceId'])
export class EventOccurrence {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  @ForeignKey('events', { onDelete: 'CASCADE' })
  eventId: string;

  @PrimaryColumn({ name: 'recurrence_id', type: 'varchar', length: 19, collation: 'C' })
  recurrenceId: string;

  @Column({ name: 'space_id', type: 'uuid' })
  spaceId: string;

  @Column({ name: 'starts_at', type: 'timestamptz', precision: 3 })
  startsAt: Date;

  /** Window end: null for an open-ended timed occurrence. */
  @Column({ name: 'ends_at', type: 'timestamptz', precision: 3, nullable: true })
  endsAt: Date | null;
}
