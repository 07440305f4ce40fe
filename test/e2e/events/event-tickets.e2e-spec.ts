import {
  bootSpaces,
  Caller,
  expectInvalid,
  expectStatus,
  publicSpace,
  SpacesTestApp,
} from '../spaces/support';
import { createProduct } from '../store/support';
import { statementsDuring } from '../../support/statements';
import { createEvent, items, query, setNow, timedEvent } from './support';

const NOW = '2027-01-10T00:00:00Z';

/** Tickets on events come from the store (design.md §12 "Tickets"; docs/decisions/0070-store-products-releases-and-tickets.md). */
describe('event tickets from the store (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
    await setNow(t, NOW);
  });

  afterAll(() => t?.close());

  const ticketsOf = async (spaceId: string) => {
    const window = query({ from: '2027-01-10T00:00:00Z', to: '2027-02-10T00:00:00Z' });
    const [first] = items(await t.anonymous.get(`/v1/spaces/${spaceId}/events?${window}`));
    return first.tickets as { id: string }[];
  };

  it('lists the published products named, in order, with public prices; follows publishing at once', async () => {
    const spaceId = await publicSpace(owner);
    const entry = await createProduct(owner, spaceId, {
      name: 'Entry',
      prices: [
        { type: 'one-time', currency: 'EUR', amount: 1500 },
        { type: 'recurring', currency: 'EUR', amount: 500, interval: 'month' },
      ],
    });
    const support = await createProduct(owner, spaceId, {
      name: 'Supporter',
      prices: [{ type: 'pay-what-you-want', currency: 'EUR', amount: 0, suggestedAmount: 2000 }],
    });
    const hidden = await createProduct(owner, spaceId, { name: 'Backstage', published: false });
    await createEvent(
      owner,
      spaceId,
      timedEvent({ requiresTicket: true, ticketProductIds: [support.id, hidden.id, entry.id] }),
    );

    const entryPrice = entry.prices.find((price) => price.type === 'one-time')!;
    expect(await ticketsOf(spaceId)).toEqual([
      {
        id: support.id,
        slug: 'supporter',
        name: 'Supporter',
        prices: [
          {
            id: support.prices[0].id,
            type: 'pay-what-you-want',
            currency: 'EUR',
            amount: 0,
            suggestedAmount: 2000,
            archived: false,
          },
        ],
        isSoldOut: false,
        purchasable: true,
      },
      {
        id: entry.id,
        slug: 'entry',
        name: 'Entry',
        prices: [{ id: entryPrice.id, type: 'one-time', currency: 'EUR', amount: 1500, archived: false }],
        isSoldOut: false,
        purchasable: true,
      },
    ]);

    expectStatus(
      await owner.put(`/spaces/${spaceId}/products/${support.id}`, {
        ...productOf(support),
        published: false,
      }),
      200,
    );
    expect((await ticketsOf(spaceId)).map((ticket) => ticket.id)).toEqual([entry.id]);
    expectStatus(
      await owner.put(`/spaces/${spaceId}/products/${hidden.id}`, { ...productOf(hidden), published: true }),
      200,
    );
    expect((await ticketsOf(spaceId)).map((ticket) => ticket.id)).toEqual([hidden.id, entry.id]);
    expectStatus(await owner.delete(`/spaces/${spaceId}/products/${entry.id}`), 204);
    expect((await ticketsOf(spaceId)).map((ticket) => ticket.id)).toEqual([hidden.id]);
  });

  it('refuses a product of another space, or a deleted one, at its index', async () => {
    const spaceId = await publicSpace(owner);
    const elsewhere = await createProduct(owner, await publicSpace(owner), { name: 'Elsewhere' });
    const gone = await createProduct(owner, spaceId, { name: 'Gone' });
    expectStatus(await owner.delete(`/spaces/${spaceId}/products/${gone.id}`), 204);
    const mine = await createProduct(owner, spaceId, { name: 'Mine' });
    const response = await owner.post(
      `/spaces/${spaceId}/events`,
      timedEvent({ ticketProductIds: [mine.id, elsewhere.id, gone.id] }),
    );
    expectInvalid(response, 'ticketProductIds.1');
    expect((response.body as { details: { path: string }[] }).details.map((detail) => detail.path)).toEqual([
      'ticketProductIds.1',
      'ticketProductIds.2',
    ]);
  });

  it('reads the tickets of a page in the same statements whatever the number of ticketed events', async () => {
    const listing = async (events: number) => {
      const spaceId = await publicSpace(owner);
      for (let index = 0; index < events; index += 1) {
        const product = await createProduct(owner, spaceId, { name: `Ticket ${index}` });
        await createEvent(
          owner,
          spaceId,
          timedEvent({ requiresTicket: true, ticketProductIds: [product.id] }),
        );
      }
      const window = query({ from: '2027-01-10T00:00:00Z', to: '2027-02-10T00:00:00Z' });
      let answer: Awaited<ReturnType<typeof t.anonymous.get>> | undefined;
      const statements = await statementsDuring(async () => {
        answer = await t.anonymous.get(`/v1/spaces/${spaceId}/events?${window}`);
      });
      expectStatus(answer!, 200);
      const tickets = items(answer!).map((occurrence) => (occurrence.tickets as { name: string }[])[0].name);
      return { statements: statements.length, tickets: [...new Set(tickets)].sort() };
    };
    const one = await listing(1);
    const five = await listing(5);
    expect(one.tickets).toEqual(['Ticket 0']);
    expect(five.tickets).toEqual(['Ticket 0', 'Ticket 1', 'Ticket 2', 'Ticket 3', 'Ticket 4']);
    expect(five.statements).toBe(one.statements);
  });
});

/** A product record as a PUT body (the PUT replaces the product). */
function productOf(record: { name: string; slug: string; prices: Record<string, unknown>[] }) {
  return {
    name: record.name,
    slug: record.slug,
    prices: record.prices.map(({ archived: _archived, ...price }) => price),
  };
}
