import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { parseEntityId } from '../common/ids/entity-id';
import { TicketEntry } from './dto/store-records.dto';
import { StoreProduct } from './entities/store-product.entity';
import { ProductPrices } from './product-prices';
import { toTicketEntry } from './store-records';

/**
 * What other modules read of the store (design.md §12 "Tickets"): the events module names products
 * by their database ids and reads ticket entries here, never the store's tables.
 */
@Injectable()
export class TicketCatalog {
  constructor(
    @InjectRepository(StoreProduct) private readonly products: Repository<StoreProduct>,
    private readonly prices: ProductPrices,
  ) {}

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
    const found = await this.products.find({
      where: {
        id: In([...new Set(wanted.map((item) => item.productId))]),
        published: true,
        deletedAt: IsNull(),
      },
    });
    const products = found.filter((product) => asked.has(`${product.spaceId}/${product.id}`));
    const prices = await this.prices.publicOf(products.map((product) => product.id));
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
    const live = candidates.length
      ? await this.products.find({
          where: { id: In([...new Set(candidates)]), spaceId, deletedAt: IsNull() },
          select: { id: true },
        })
      : [];
    const known = new Set(live.map((product) => product.id));
    return uuids.map((uuid) => (uuid && known.has(uuid) ? uuid : null));
  }
}
