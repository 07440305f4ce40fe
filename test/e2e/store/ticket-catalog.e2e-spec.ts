import { parseEntityId } from '../../../src/common/ids/entity-id';
import { StoreTicketsService } from '../../../src/store/services/store-tickets.service';
import { bootSpaces, Caller, publicSpace, SpacesTestApp } from '../spaces/support';
import { createProduct, ProductRecord } from './support';

const uuidOf = (product: { id: string }) => parseEntityId('product', product.id)!;
const spaceUuid = (spaceId: string) => parseEntityId('space', spaceId)!;

describe('StoreTicketsService: the ticket entries the events module reads (e2e, through the booted module)', () => {
  let t: SpacesTestApp;
  let owner: Caller;
  let catalog: StoreTicketsService;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
    catalog = t.app.get(StoreTicketsService);
  });
  /** The entries of one space's products in the order asked, as an event of that space lists them. */
  const ticketsFor = async (spaceId: string, productIds: string[]) => {
    const entries = await catalog.ticketsByProduct(productIds.map((productId) => ({ spaceId, productId })));
    return productIds.flatMap((id) => entries.get(`${spaceId}/${id}`) ?? []);
  };

  afterAll(async () => {
    await t.close();
  });

  it('answers published, live products of the space in the order asked, with public prices only', async () => {
    const spaceId = await publicSpace(owner);
    const early = await createProduct(owner, spaceId, {
      name: 'Early bird',
      soldOut: true,
      prices: [
        { type: 'one-time', currency: 'EUR', amount: 1000 },
        { type: 'one-time', currency: 'EUR', amount: 800, archived: true },
        { type: 'recurring', currency: 'EUR', amount: 100, interval: 'month' },
        { type: 'pay-what-you-want', currency: 'EUR', amount: 500, suggestedAmount: 1500 },
      ],
    });
    const door = await createProduct(owner, spaceId, { name: 'Door', purchasable: false });
    const draft = await createProduct(owner, spaceId, { name: 'Draft', published: false });
    const foreign = await createProduct(owner, await publicSpace(owner), { name: 'Foreign' });

    const tickets = await ticketsFor(spaceUuid(spaceId), [
      uuidOf(door),
      uuidOf(draft),
      uuidOf(foreign),
      uuidOf(early),
      '00000000-0000-7000-8000-000000000000',
    ]);
    expect(tickets).toEqual([
      {
        id: door.id,
        slug: 'door',
        name: 'Door',
        prices: [{ id: door.prices[0].id, type: 'one-time', currency: 'EUR', amount: 1500, archived: false }],
        isSoldOut: false,
        purchasable: false,
      },
      {
        id: early.id,
        slug: 'early-bird',
        name: 'Early bird',
        prices: [
          { id: early.prices[0].id, type: 'one-time', currency: 'EUR', amount: 1000, archived: false },
          {
            id: early.prices[3].id,
            type: 'pay-what-you-want',
            currency: 'EUR',
            amount: 500,
            suggestedAmount: 1500,
            archived: false,
          },
        ],
        isSoldOut: true,
        purchasable: true,
      },
    ]);
    expect(await ticketsFor(spaceUuid(spaceId), [])).toEqual([]);
  });

  it('drops a product at once when it is unpublished or deleted, and follows its slug', async () => {
    const spaceId = await publicSpace(owner);
    const a = await createProduct(owner, spaceId, { name: 'A' });
    const b = await createProduct(owner, spaceId, { name: 'B' });
    const ids = [uuidOf(a), uuidOf(b)];
    const names = async () => (await ticketsFor(spaceUuid(spaceId), ids)).map((entry) => entry.slug);
    expect(await names()).toEqual(['a', 'b']);
    const put = (product: ProductRecord, body: Record<string, unknown>) =>
      owner.put(`/spaces/${spaceId}/products/${product.id}`, {
        name: product.name,
        prices: [],
        published: true,
        ...body,
      });
    await put(a, { published: false });
    expect(await names()).toEqual(['b']);
    await put(a, { slug: 'a-renamed' });
    expect(await names()).toEqual(['a-renamed', 'b']);
    await owner.delete(`/spaces/${spaceId}/products/${b.id}`);
    expect(await names()).toEqual(['a-renamed']);
  });

  it('reads the products of events of many spaces at once, each only under its own space', async () => {
    const first = await publicSpace(owner);
    const second = await publicSpace(owner);
    const a = await createProduct(owner, first, { name: 'A' });
    const b = await createProduct(owner, second, { name: 'B' });
    const hidden = await createProduct(owner, second, { name: 'Hidden', published: false });
    const byProduct = await catalog.ticketsByProduct([
      { spaceId: spaceUuid(first), productId: uuidOf(a) },
      { spaceId: spaceUuid(second), productId: uuidOf(b) },
      { spaceId: spaceUuid(first), productId: uuidOf(b) },
      { spaceId: spaceUuid(second), productId: uuidOf(hidden) },
    ]);
    expect([...byProduct.keys()].sort()).toEqual(
      [`${spaceUuid(first)}/${uuidOf(a)}`, `${spaceUuid(second)}/${uuidOf(b)}`].sort(),
    );
    expect(byProduct.get(`${spaceUuid(second)}/${uuidOf(b)}`)).toMatchObject({
      id: b.id,
      slug: 'b',
      name: 'B',
    });
    expect(await ticketsFor(spaceUuid(first), [uuidOf(b), uuidOf(a)])).toEqual([
      byProduct.get(`${spaceUuid(first)}/${uuidOf(a)}`),
    ]);
    expect((await catalog.ticketsByProduct([])).size).toBe(0);
  });

  it('resolves wire ids of live products of the space (published or not) for writes to check', async () => {
    const spaceId = await publicSpace(owner);
    const live = await createProduct(owner, spaceId, { published: false });
    const gone = await createProduct(owner, spaceId);
    await owner.delete(`/spaces/${spaceId}/products/${gone.id}`);
    const foreign = await createProduct(owner, await publicSpace(owner));
    expect(
      await catalog.liveProductIds(spaceUuid(spaceId), [live.id, gone.id, foreign.id, 'product_x', live.id]),
    ).toEqual([uuidOf(live), null, null, null, uuidOf(live)]);
  });
});
