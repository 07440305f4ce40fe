import { Injectable } from '@nestjs/common';
import { parseEntityId } from '../../common/ids/entity-id';
import { PUBLIC_PRICE_TYPES } from '../domain/store-rules';
import { TicketEntry } from '../dto/store-records.dto';
import { ProductsRepository } from '../repositories/products.repository';
import { toTicketEntry } from './store.presenter';

/**
 * What other modules read of the store (design.md §12 "Tickets"): the events module names products
 * by their database ids and reads ticket entries here, never the store's tables.
 */
@Injectable()
export class StoreTicketsService {
  constructor(private readonly products: ProductsRepository) {}

  /**
   * The entries of many events' products at once, possibly of many spaces (a listing across
   * spaces reads them in two queries), keyed by `<space id>/<product id>`: a product named under a
   * space it does not belong to is left out, as are unpublished and deleted ones (at once).
   */
  async ticketsByProduct(
    wanted: readonly { spaceId: string; productId: string }[],
  ): Promise<Map<string, TicketEntry>> {
    const entries = new Map<string, TicketEntry>();
    if (wanted.length === 0) return entries;
    const asked = new Set(wanted.map(({ spaceId, productId }) => `${spaceId}/${productId}`));
    const found = await this.products.publishedProductsByIds([
      ...new Set(wanted.map((item) => item.productId)),
    ]);
    const products = found.filter((product) => asked.has(`${product.spaceId}/${product.id}`));
    const prices = await this.products.publicPricesOf(
      products.map((product) => product.id),
      PUBLIC_PRICE_TYPES,
    );
    for (const product of products) {
      entries.set(`${product.spaceId}/${product.id}`, toTicketEntry(product, prices.get(product.id)!));
    }
    return entries;
  }

  /**
   * The database id behind each wire product id when it names a live product of the space
   * (published or not), else null: how writes check that `productIds` or `ticketProductIds` name
   * products of the same space.
   */
  async liveProductIds(spaceId: string, wireIds: readonly string[]): Promise<(string | null)[]> {
    const uuids = wireIds.map((wireId) => parseEntityId('product', wireId));
    const candidates = uuids.filter((uuid): uuid is string => uuid !== null);
    const known = new Set(
      candidates.length ? await this.products.liveProductIds(spaceId, [...new Set(candidates)]) : [],
    );
    return uuids.map((uuid) => (uuid && known.has(uuid) ? uuid : null));
  }
}
