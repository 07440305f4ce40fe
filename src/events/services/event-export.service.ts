import { Injectable } from '@nestjs/common';
import { EXPORT_PAGE_ROWS, ExportPage, exportPageOf } from '../../common/export/export-page';
import { formatEntityId } from '../../common/ids/entity-id';
import type { CalendarEvent } from '../entities/event.entity';
import { EventsRepository } from '../repositories/events.repository';

/**
 * An event as a space's export holds it: the administration record's fields (EventAdminRecord,
 * events.presenter's toEventAdminRecord), its cover by id. Written here rather than through the
 * presenter, whose DTOs import the store (a cycle through the records module).
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
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<ExportedEvent>> {
    const rows = await this.events.exportPageOfSpace(spaceId, after, limit + 1);
    return exportPageOf(rows, limit, (row) => row.id, exportedEvent);
  }
}

function exportedEvent(event: CalendarEvent): ExportedEvent {
  return {
    id: formatEntityId('evt', event.id),
    spaceId: formatEntityId('space', event.spaceId),
    title: event.title,
    description: event.description,
    location: event.location,
    type: event.type,
    mode: event.mode,
    url: event.url,
    isAllDay: event.isAllDay,
    startsAt: event.startsAt?.toISOString() ?? null,
    endsAt: event.endsAt?.toISOString() ?? null,
    timeZone: event.timeZone,
    startDate: event.startDate,
    endDate: event.endDate,
    rrule: event.rrule,
    coverId: event.coverMediaId ? formatEntityId('media', event.coverMediaId) : null,
    requiresTicket: event.requiresTicket,
    ticketProductIds: event.ticketProductIds,
    visibility: event.visibility,
    createdAt: event.createdAt.toISOString(),
    updatedAt: event.updatedAt.toISOString(),
  };
}
