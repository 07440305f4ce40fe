import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';

export type EventType = 'attend' | 'update';
export type EventMode = 'call' | 'place' | 'chat';
export type EventVisibility = 'public' | 'members' | 'draft';

/**
 * An event of a space (design.md §12): timed (`startsAt`, `endsAt`, `timeZone`) or all-day
 * (`startDate`, `endDate`), optionally repeating by an RRULE. Its occurrences are materialized in
 * `event_occurrences` while it is public.
 */
@Entity({ name: 'events' })
@Index('idx_events_space', ['spaceId'])
@Index('idx_events_window_span', ['windowSpanMs'])
// The full-text index the search module reads through the view searchable_events (created by its
// migration: a GIN index TypeORM cannot declare; docs/decisions/0180-search-indexes-on-the-owners-tables.md).
@Index('idx_events_search', { synchronize: false })
export class CalendarEvent {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  location: string | null;

  @Column({ type: 'varchar', length: 16 })
  type: EventType;

  @Column({ type: 'varchar', length: 16, nullable: true })
  mode: EventMode | null;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  url: string | null;

  @Column({ name: 'is_all_day', type: 'boolean' })
  isAllDay: boolean;

  @Column({ name: 'starts_at', type: 'timestamptz', precision: 3, nullable: true })
  startsAt: Date | null;

  @Column({ name: 'ends_at', type: 'timestamptz', precision: 3, nullable: true })
  endsAt: Date | null;

  @Column({ name: 'time_zone', type: 'varchar', length: 64, nullable: true })
  timeZone: string | null;

  @Column({ name: 'start_date', type: 'varchar', length: 10, nullable: true })
  startDate: string | null;

  @Column({ name: 'end_date', type: 'varchar', length: 10, nullable: true })
  endDate: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  rrule: string | null;

  @Column({ name: 'cover_media_id', type: 'uuid', nullable: true })
  coverMediaId: string | null;

  @Column({ name: 'requires_ticket', type: 'boolean', default: false })
  requiresTicket: boolean;

  /** Store product ids (`product_…`), in the organizer's order. */
  @Column({ name: 'ticket_product_ids', type: 'jsonb', default: () => "'[]'" })
  ticketProductIds: string[];

  @Column({ type: 'varchar', length: 16 })
  visibility: EventVisibility;

  /** How long one occurrence counts for windows (0 when open-ended): bounds a listing's index scan. */
  @Column({ name: 'window_span_ms', type: 'bigint', transformer: { to: (v: number) => v, from: Number } })
  windowSpanMs: number;

  /** No occurrence starts before this. */
  @Column({ name: 'first_start', type: 'timestamptz', precision: 3 })
  firstStart: Date;

  /** No occurrence lasts past this; null when the series does not end. */
  @Column({ name: 'last_end', type: 'timestamptz', precision: 3, nullable: true })
  lastEnd: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt: Date;

  /**
   * The row's full-text vector, set by a trigger in the writing statement from what its readers see
   * (docs/decisions/0180-search-indexes-on-the-owners-tables.md); never read or written here.
   */
  @Column({
    name: 'search_vector',
    type: 'tsvector',
    nullable: true,
    select: false,
    insert: false,
    update: false,
  })
  searchVector?: string | null;
}
