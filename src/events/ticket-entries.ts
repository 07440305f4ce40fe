import { Injectable } from '@nestjs/common';
import { parseEntityId } from '../common/ids/entity-id';
import { TicketCatalog } from '../store/ticket-catalog';
import { TicketEntry } from './dto/event-records.dto';

/**
 * What events need of the store (design.md §12 "Tickets", §13), read through the store's exported
 * `TicketCatalog` (never its tables). Events keep ticket products by their wire ids (`product_…`).
 */
@Injectable()
export class TicketEntries {
  constructor(private readonly catalog: TicketCatalog) {}

  /** The ids among `productIds` (`product_…`) that name live products of the space, published or not. */
  async productsOf(spaceId: string, productIds: string[]): Promise<string[]> {
    const live = await this.catalog.liveProductIds(spaceId, productIds);
    return productIds.filter((_, index) => live[index] !== null);
  }

  /**
   * The ticket entries of those products that are published, in the order of `productIds`, each
   * with the public price filter of design.md §9 (active one-time and pay-what-you-want prices).
   */
  forProducts(spaceId: string, productIds: string[]): Promise<TicketEntry[]> {
    const uuids = productIds
      .map((id) => parseEntityId('product', id))
      .filter((id): id is string => id !== null);
    return this.catalog.ticketsFor(spaceId, uuids);
  }
}
