import { Injectable } from '@nestjs/common';
import { parseEntityId } from '../../common/ids/entity-id';
import { StoreTicketsService } from '../../store';
import { TicketEntry } from '../dto/event-records.dto';
import { CalendarEvent } from '../entities/event.entity';

/**
 * What events need of the store (design.md §12 "Tickets", §13), read through the store's exported
 * `StoreTicketsService` (never its tables). Events keep ticket products by their wire ids (`product_…`).
 */
@Injectable()
export class EventTicketsService {
  constructor(private readonly catalog: StoreTicketsService) {}

  /** The ids among `productIds` (`product_…`) that name live products of the space, published or not. */
  async productsOf(spaceId: string, productIds: string[]): Promise<string[]> {
    const live = await this.catalog.liveProductIds(spaceId, productIds);
    return productIds.filter((_, index) => live[index] !== null);
  }

  /**
   * The ticket entries of each event (by id): those of its products that are published and of its
   * space, in the order it names them, each with the public price filter of design.md §9 (active
   * one-time and pay-what-you-want prices). Two queries whatever the number of events.
   */
  async forEvents(events: readonly CalendarEvent[]): Promise<Map<string, TicketEntry[]>> {
    const named = events.map((event) => ({
      event,
      products: event.ticketProductIds
        .map((id) => parseEntityId('product', id))
        .filter((id): id is string => id !== null),
    }));
    const entries = await this.catalog.ticketsByProduct(
      named.flatMap(({ event, products }) =>
        products.map((productId) => ({ spaceId: event.spaceId, productId })),
      ),
    );
    return new Map(
      named.map(({ event, products }) => [
        event.id,
        products.flatMap((productId) => entries.get(`${event.spaceId}/${productId}`) ?? []),
      ]),
    );
  }
}
