import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The one row saying which span `event_occurrences` covers: every occurrence of a public event
 * overlapping `[materializedFrom, materializedUntil)` is there. The scheduled refresh moves it.
 */
@Entity({ name: 'event_occurrence_horizon' })
export class OccurrenceHorizon {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  @Column({ name: 'materialized_from', type: 'timestamptz', precision: 3 })
  materializedFrom: Date;

  @Column({ name: 'materialized_until', type: 'timestamptz', precision: 3 })
  materializedUntil: Date;
}
