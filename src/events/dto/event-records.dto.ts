import { ApiProperty } from '@nestjs/swagger';
import { MediaObject } from '../../media';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { EVENT_MODES, EVENT_TYPES, EVENT_VISIBILITIES } from './event-requests.dto';

/** The compact space block of an occurrence (api-spec.md "Event occurrence"). */
export class EventSpaceBlock {
  @ApiProperty({ example: 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty()
  did: string;

  @ApiProperty()
  domain: string;

  @ApiProperty({ type: String, nullable: true })
  displayName: string | null;

  @ApiProperty({ type: String, nullable: true })
  avatarUrl: string | null;
}

/** A ticket entry (api-spec.md): a published store product named by the event, as the store emits it. */
export { TicketEntry } from '../../store';
import { TicketEntry } from '../../store';

/** One occurrence of an event (api-spec.md "Event occurrence"). */
export class EventOccurrenceRecord {
  @ApiProperty({ example: 'evt_0190f1a2b3c4d5e6f708192a3b4c5d6e', description: 'the event' })
  id: string;

  @ApiProperty({ description: 'same as id' })
  seriesId: string;

  @ApiProperty({
    example: '2026-03-19T18:00:00',
    description: 'local start, or the date of an all-day event',
  })
  recurrenceId: string;

  @ApiProperty({ type: EventSpaceBlock })
  space: EventSpaceBlock;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true })
  location: string | null;

  @ApiProperty({ enum: EVENT_TYPES })
  type: string;

  @ApiProperty({ enum: EVENT_MODES, nullable: true })
  mode: string | null;

  @ApiProperty({ type: String, nullable: true })
  url: string | null;

  @ApiProperty({ type: 'integer' })
  interestCount: number;

  @ApiProperty()
  requiresTicket: boolean;

  @ApiProperty({ type: [TicketEntry] })
  tickets: TicketEntry[];

  @ApiProperty({
    type: MediaObject,
    nullable: true,
    description: 'a public image: permanent URL, never signed',
  })
  cover: MediaObject | null;

  @ApiProperty()
  isAllDay: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startsAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endsAt: string | null;

  @ApiProperty({ type: String, nullable: true })
  localStart: string | null;

  @ApiProperty({ type: String, nullable: true })
  timeZone: string | null;

  @ApiProperty({ type: String, nullable: true })
  startDate: string | null;

  @ApiProperty({ type: String, nullable: true })
  endDate: string | null;
}

export class EventOccurrenceListing extends PageEnvelope {
  @ApiProperty({ type: [EventOccurrenceRecord] })
  items: EventOccurrenceRecord[];
}

/** The event as its admins wrote it (design.md §9 answers the written record). */
export class EventAdminRecord {
  @ApiProperty({ example: 'evt_0190f1a2b3c4d5e6f708192a3b4c5d6e' })
  id: string;

  @ApiProperty()
  spaceId: string;

  @ApiProperty()
  title: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true })
  location: string | null;

  @ApiProperty({ enum: EVENT_TYPES })
  type: string;

  @ApiProperty({ enum: EVENT_MODES, nullable: true })
  mode: string | null;

  @ApiProperty({ type: String, nullable: true })
  url: string | null;

  @ApiProperty()
  isAllDay: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startsAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endsAt: string | null;

  @ApiProperty({ type: String, nullable: true })
  timeZone: string | null;

  @ApiProperty({ type: String, nullable: true })
  startDate: string | null;

  @ApiProperty({ type: String, nullable: true })
  endDate: string | null;

  @ApiProperty({ type: String, nullable: true })
  rrule: string | null;

  @ApiProperty({
    type: MediaObject,
    nullable: true,
    description: 'a public image: permanent URL, never signed',
  })
  cover: MediaObject | null;

  @ApiProperty()
  requiresTicket: boolean;

  @ApiProperty({ type: [String] })
  ticketProductIds: string[];

  @ApiProperty({ enum: EVENT_VISIBILITIES })
  visibility: string;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  @ApiProperty({ type: String, format: 'date-time' })
  updatedAt: string;
}

/** An occurrence override as written. */
export class OccurrenceOverrideRecord {
  @ApiProperty()
  eventId: string;

  @ApiProperty()
  recurrenceId: string;

  @ApiProperty({
    type: MediaObject,
    nullable: true,
    description: 'a public image: permanent URL, never signed',
  })
  cover: MediaObject | null;

  @ApiProperty()
  canceled: boolean;
}
