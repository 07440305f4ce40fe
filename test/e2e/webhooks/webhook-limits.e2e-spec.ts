import { AppConfig } from '../../../src/config/app-config';
import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { newSpace } from '../memberships/support';
import { expectStatus, SpacesTestApp } from '../spaces/support';
import { bootWithReceivers, person, Receiver } from './support';

interface Delivery {
  id: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
}

/**
 * An attempt's limits (docs/decisions/0163-webhook-signatures.md, 0164-webhook-retries-and-disabling.md):
 * the request's deadline (10 s by default), the whole retry schedule by the clock, and the guarded
 * outbound fetcher deciding at delivery time (a receiver's name that resolves to a private address).
 */
describe('webhook attempt limits', () => {
  let t: SpacesTestApp;
  let receiver: Receiver;
  let elsewhere: Receiver;
  let owner: Actor;
  let space: { id: string };

  beforeAll(async () => {
    receiver = await new Receiver().start();
    // Never let through the guard: a private address the service must not reach.
    elsewhere = await new Receiver().start();
    t = await bootWithReceivers([receiver], { WEBHOOK_TIMEOUT_MS: '400' });
    owner = await person(t);
    space = await newSpace(owner, 'Limited');
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
    await elsewhere?.stop();
  });

  const base = () => `/spaces/${space.id}/webhooks`;
  async function subscribe(path: string): Promise<string> {
    const created = await owner.post(base(), { url: receiver.url(path), events: ['post.created'] });
    expectStatus(created, 201);
    return created.body.id as string;
  }
  async function log(webhookId: string): Promise<Delivery[]> {
    const response = await owner.get(`${base()}/${webhookId}/deliveries`);
    expectStatus(response, 200);
    return response.body.items as Delivery[];
  }
  const attempted = (webhookId: string, attempts: number) =>
    eventually(
      () => log(webhookId),
      (items) => items[0]?.attempts === attempts,
    );

  it('the deadline is 10 s unless configured; an answer later than it is a failure, retried', async () => {
    expect(new AppConfig().WEBHOOK_TIMEOUT_MS).toBe(10_000);
    const hook = await subscribe('/slow');
    receiver.answers = ['hang'];
    const started = Date.now();
    expectStatus(await owner.post(`${base()}/${hook}/test`, {}), 202);
    const [delivery] = await attempted(hook, 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(delivery).toMatchObject({
      status: 'pending',
      lastStatusCode: null,
      lastError: 'network: timed out',
    });
    const pause = Date.parse(delivery.nextAttemptAt!) - t.clock.now().getTime();
    expect(pause).toBeGreaterThan(3_000);
    expect(pause).toBeLessThanOrEqual(5_000);
    receiver.dropConnections();
    t.clock.offsetMs += 5_000;
    const [done] = await eventually(
      () => log(hook),
      (items) => items[0]?.status === 'succeeded',
    );
    expect(done).toMatchObject({ attempts: 2, lastStatusCode: 204, lastError: null });
    expectStatus(await owner.delete(`${base()}/${hook}`), 204);
  });

  it('retries on the whole schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), then the delivery has failed', async () => {
    const hook = await subscribe('/down');
    receiver.fallback = 500;
    try {
      expectStatus(await owner.post(`${base()}/${hook}/test`, {}), 202);
      const schedule = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
      for (const [index, expected] of schedule.entries()) {
        const [delivery] = await attempted(hook, index + 1);
        expect(delivery.status).toBe('pending');
        const pause = Date.parse(delivery.nextAttemptAt!) - t.clock.now().getTime();
        expect([index, pause > expected - 2_000 && pause <= expected]).toEqual([index, true]);
        t.clock.offsetMs += expected;
      }
      const [last] = await attempted(hook, 8);
      expect(last).toMatchObject({ status: 'failed', nextAttemptAt: null, lastStatusCode: 500 });
      // About 28 hours of failure: not yet the 5 days that disable it.
      expect((await owner.get(`${base()}/${hook}`)).body.enabled).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received.filter((item) => item.path === '/down')).toHaveLength(8);
    } finally {
      receiver.fallback = 204;
    }
    expectStatus(await owner.delete(`${base()}/${hook}`), 204);
  });

  it('the deliveries log is paginated newest first by keyset, with the log fields', async () => {
    const hook = await subscribe('/paged');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const tested = await owner.post(`${base()}/${hook}/test`, {});
      expectStatus(tested, 202);
      ids.unshift(tested.body.id as string);
    }
    await eventually(
      () => log(hook),
      (items) => items.length === 3 && items.every((item) => item.status === 'succeeded'),
    );
    const first = await owner.get(`${base()}/${hook}/deliveries?limit=2`);
    expectStatus(first, 200);
    expect(first.body.items.map((item: Delivery) => item.id)).toEqual(ids.slice(0, 2));
    expect(Object.keys(first.body.items[0] as object).sort()).toEqual(
      expect.arrayContaining([
        'attempts',
        'eventId',
        'lastError',
        'lastStatusCode',
        'latencyMs',
        'nextAttemptAt',
        'type',
      ]),
    );
    const second = await owner.get(
      `${base()}/${hook}/deliveries?limit=2&after=${encodeURIComponent(first.body.nextCursor as string)}`,
    );
    expectStatus(second, 200);
    expect(second.body.items.map((item: Delivery) => item.id)).toEqual(ids.slice(2));
    expect(second.body.nextCursor).toBeNull();
    expectStatus(await owner.get(`${base()}/${hook}/deliveries?limit=0`), 400);
    expectStatus(await owner.delete(`${base()}/${hook}`), 204);
  });

  it('the guarded fetcher decides at delivery: a name resolving to a private address is refused', async () => {
    const hook = await subscribe('/guarded');
    // As if the receiver's name now resolved to a private address (DNS changed after the check).
    await t.dataSource.query('UPDATE webhooks SET url = $1 WHERE id = $2', [
      `http://localhost:${elsewhere.port}/hook`,
      (
        (await t.dataSource.query('SELECT id FROM webhooks WHERE url = $1', [receiver.url('/guarded')])) as {
          id: string;
        }[]
      )[0].id,
    ]);
    expectStatus(await owner.post(`${base()}/${hook}/test`, {}), 202);
    const [delivery] = await attempted(hook, 1);
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: null });
    expect(delivery.lastError).toBe('refused: localhost does not resolve to public addresses only');
    expect(elsewhere.received).toEqual([]);
    expectStatus(await owner.delete(`${base()}/${hook}`), 204);
  });
});
