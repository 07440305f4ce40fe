import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { RedisRelay, REDIS_URL } from '../rate-limit/support';
import { newSpace } from '../memberships/support';
import { expectStatus, SpacesTestApp } from '../spaces/support';
import { bootWithReceivers, person, Receiver, running, verifiesWith } from './support';

interface Row {
  status: string;
  attempts: number;
  last_status_code: number | null;
}

const rowOf = async (t: SpacesTestApp, messageId: string): Promise<Row> =>
  (
    (await t.dataSource.query(
      'SELECT status, attempts, last_status_code FROM webhook_deliveries WHERE message_id = $1',
      [messageId],
    )) as Row[]
  )[0];

/**
 * Faults (docs/decisions/0162-webhook-delivery-state-in-postgresql.md): a delivery's state is its
 * row, so a replica that dies mid-attempt leaves it to another once its lease is over, and an
 * outage of Redis (the queue and the sweep's schedule) delays deliveries but loses none.
 */
describe('webhook deliveries under faults', () => {
  it('a replica dead mid-attempt: another delivers it once the lease is over; the dead one’s late outcome changes nothing', async () => {
    const receiver = await new Receiver().start();
    receiver.answers = ['hang'];
    // Replica A takes the delivery and never hears back (its deadline far away): as good as dead.
    const a = await bootWithReceivers([receiver], { WEBHOOK_TIMEOUT_MS: '120000' });
    const attemptsOfA = running(a, 'attempt');
    let b: SpacesTestApp | undefined;
    try {
      const owner = await person(a);
      const space = await newSpace(owner, 'Faulty');
      const hook = await owner.post(`/spaces/${space.id}/webhooks`, {
        url: receiver.url(),
        events: ['post.created'],
      });
      expectStatus(await owner.post(`/spaces/${space.id}/webhooks/${hook.body.id as string}/test`, {}), 202);
      const [first] = await eventually(
        () => receiver.received,
        (items) => items.length === 1,
      );
      const messageId = first.headers['webhook-id'] as string;

      // Replica B, on the same database, a second past A's lease (a minute).
      b = await bootWithReceivers([receiver], {}, a.databaseUrl);
      b.clock.offsetMs = a.config.WEBHOOK_LEASE_MS + 1_000;
      const [, second] = await eventually(
        () => receiver.received,
        (items) => items.length >= 2,
      );
      expect(second.headers['webhook-id']).toBe(messageId);
      expect(verifiesWith(hook.body.secret as string, second)).toBe(true);
      expect(
        await eventually(
          () => rowOf(b!, messageId),
          (row) => row.status === 'succeeded',
        ),
      ).toMatchObject({
        status: 'succeeded',
        attempts: 1,
        last_status_code: 204,
      });

      // A's attempt ends now, in a network error: it no longer holds the delivery, so nothing changes.
      expect(attemptsOfA()).toBeGreaterThanOrEqual(1);
      receiver.dropConnections();
      expect(await eventually(attemptsOfA, (count) => count === 0)).toBe(0);
      expect(await rowOf(b, messageId)).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(receiver.received).toHaveLength(2);
    } finally {
      await b?.close();
      await a.close();
      await receiver.stop();
    }
  });

  (process.env.REDIS_URL ? it : it.skip)(
    'Redis cut between two attempts: the retry runs once it is back',
    async () => {
      const relay = new RedisRelay(new URL(REDIS_URL));
      await relay.start();
      const receiver = await new Receiver().start();
      receiver.answers = [503];
      const t = await bootWithReceivers([receiver], { REDIS_URL: relay.url });
      const sweeps = running(t, 'sweep');
      try {
        const owner: Actor = await person(t);
        const space = await newSpace(owner, 'Cut');
        const hook = await owner.post(`/spaces/${space.id}/webhooks`, {
          url: receiver.url(),
          events: ['post.created'],
        });
        expectStatus(
          await owner.post(`/spaces/${space.id}/webhooks/${hook.body.id as string}/test`, {}),
          202,
        );
        const [first] = await eventually(
          () => receiver.received,
          (items) => items.length === 1,
        );
        const messageId = first.headers['webhook-id'] as string;
        await eventually(
          () => rowOf(t, messageId),
          (row) => row.attempts === 1,
        );

        await relay.stop();
        // A sweep already running when Redis went (one is taken every 100 ms) may end first.
        expect(await eventually(sweeps, (count) => count === 0)).toBe(0);
        t.clock.offsetMs += 5_000;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(receiver.received).toHaveLength(1);
        await relay.start();

        const row = await eventually(
          () => rowOf(t, messageId),
          (state) => state.status === 'succeeded',
          30_000,
        );
        expect(row).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 204 });
        expect(receiver.received.map((item) => item.headers['webhook-id'])).toEqual([messageId, messageId]);
      } finally {
        await t.close();
        await receiver.stop();
        await relay.stop();
      }
    },
  );
});
