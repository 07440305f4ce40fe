import { ValidationDetail, invalidRequest } from '../../common/errors/api-error';
import { newUuid, parseEntityId } from '../../common/ids/entity-id';
import { PriceInput } from '../dto/store-requests.dto';
import { StoreProductPrice } from '../entities/store-product-price.entity';

/**
 * The price rows a request's list stands for, in its order. A price that names an `id` keeps it:
 * it must be one of `existing` (the product's current prices; none on create), each at most once.
 * Anything else is a 400 naming the item.
 */
export function priceRows(
  productId: string,
  inputs: PriceInput[],
  existing: ReadonlySet<string>,
): StoreProductPrice[] {
  const details: ValidationDetail[] = [];
  const kept = new Set<string>();
  const rows = inputs.map((input, position) => {
    let id = newUuid();
    if (input.id !== undefined) {
      const uuid = parseEntityId('price', input.id);
      if (!uuid || !existing.has(uuid)) {
        details.push({ path: `prices.${position}.id`, message: 'id must name a price of this product' });
      } else if (kept.has(uuid)) {
        details.push({ path: `prices.${position}.id`, message: 'id names a price already in the list' });
      } else {
        kept.add(uuid);
        id = uuid;
      }
    }
    const row: StoreProductPrice = {
      id,
      productId,
      position,
      type: input.type,
      currency: input.currency,
      amount: input.amount,
      suggestedAmount: input.suggestedAmount ?? null,
      interval: input.interval ?? null,
      archived: input.archived ?? false,
    };
    return row;
  });
  if (details.length > 0) throw invalidRequest('Invalid request', details);
  return rows;
}
