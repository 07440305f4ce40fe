import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EXPORT_PAGE_ROWS, ExportPage, exportPageOf } from '../../common/export/export-page';
import { formatEntityId } from '../../common/ids/entity-id';
import { eventFieldsAfterCover, eventFieldsBeforeCover } from '../domain/event-record-fields';
import type { CalendarEvent } from '../entities/event.entity';
import { EventsRepository } from '../repositories/events.repository';

/**
 * An event as a space's export holds it: the administration record's fields
 * (domain/event-record-fields.ts, which the presenter's EventAdminRecord uses too), its cover by
 * id. Not through the presenter itself, whose DTOs import the store (a cycle through the records
 * module).
 */
export interface ExportedEvent {
  id: string;
  spaceId: string;
  title: string;
  description: string | null;
  location: string | null;
  type: string;
  mode: string | null;
  url: string | null;
  isAllDay: boolean;
  startsAt: string | null;
  endsAt: string | null;
  timeZone: string | null;
  startDate: string | null;
  endDate: string | null;
  rrule: string | null;
  coverId: string | null;
  requiresTicket: boolean;
  ticketProductIds: string[];
  visibility: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * The events module's part of a space's export (issue 35 item 4;
 * docs/decisions/0218-space-export-events-products-releases.md): every event of the space, any
 * visibility, as its administration writes and reads it, a keyset page by id per call (one
 * statement). The cover is named by its media id (its bytes are in the archive's media/ when they
 * are the space's), not by a signed URL that would expire.
 */
@Injectable()
export class EventExportService {
  constructor(private readonly events: EventsRepository) {}

  async pageOfSpace(
    spaceId: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<ExportedEvent>> {
    const rows = await this.events.exportPageOfSpace(spaceId, after, limit + 1, runner);
    return exportPageOf(rows, limit, (row) => row.id, exportedEvent);
  }
}

function exportedEvent(event: CalendarEvent): ExportedEvent {
  return {
    ...eventFieldsBeforeCover(event),
    coverId: event.coverMediaId ? formatEntityId('media', event.coverMediaId) : null,
    ...eventFieldsAfterCover(event),
  };
}
