import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { Metrics } from '../../../src/infrastructure/metrics/metrics';
import { ANNOUNCE_POST } from '../../../src/notifications/events/post-announcements.subscriber';
import { Actor } from '../../support/actors';
import { refuseWrites } from '../../support/faults';
import { TcpRelay } from '../../support/network';
import { bootApp, TestApp } from '../../support/app';
import { admit, bootSpaces, newSpace, newTopic, person, SpacesTestApp } from '../posts/support';
import { directClient, UNANNOUNCED_POSTS } from './faults-support';
import { eventuallyTrue } from '../../support/eventually';

const REDIS_URL = process.env.REDIS_URL;

/**
 * No background work is lost (docs/decisions/0125-no-background-work-lost.md): announcements were queued in Redis after commit with no outbox, so Redis
 * unreachable at that moment dropped them, a job whose 5 attempts failed during a PostgreSQL outage
 * stayed in BullMQ's failed set for good, and queued jobs vanished when Redis restarted empty. The
 * job is now recorded in the post's transaction (job_outbox) and handed on until it ran.
 */
(REDIS_URL ? describe : describe.skip)(
  `the job outbox: no announcement is lost to Redis or PostgreSQL faults${REDIS_URL ? '' : ' [skipped: needs REDIS_URL, a real Redis]'}`,
  () => {
    const prefix = `plat:test:${randomUUID()}:jobs`;
    let relay: TcpRelay;
    let direct: Redis;
    let t: SpacesTestApp;
    let owner: Actor;
    let spaceId: string;
    let topic: string;

    beforeAll(async () => {
      const target = new URL(REDIS_URL!);
      relay = await TcpRelay.start({ host: target.hostname, port: Number(target.port || 6379) });
      direct = new Redis(REDIS_URL!, { maxRetriesPerRequest: 1 });
      t = await bootSpaces({
        env: {
          REDIS_URL: relay.route(REDIS_URL!),
          JOBS_REDIS_PREFIX: prefix,
          NOTIFY_ANNOUNCE_DELAY_MS: '0',
          JOB_OUTBOX_SWEEP_MS: '200',
          JOB_OUTBOX_LEASE_MS: '2000',
          // A job's 5 attempts over 1.5 s instead of 15 s: the retries still all run and fail.
          JOBS_RETRY_BACKOFF_MS: '100',
          METRICS_PORT: '0',
        },
      });
      owner = await person(t);
      const member = await person(t);
      spaceId = (await newSpace(owner, 'Outboxed')).id;
      await admit(owner, spaceId, member);
      topic = await newTopic(owner, spaceId, 'Talk', 'members');
    });

    // A test that fails with Redis cut leaves it cut for none of the others.
    afterEach(() => relay.restore());

    afterAll(async () => {
      await t.close();
      await relay.close();
      direct.disconnect();
    });

    const unannounced = async () =>
      ((await t.dataSource.query(UNANNOUNCED_POSTS)) as { unannounced: number }[])[0].unannounced;
    const allAnnounced = async () => (await unannounced()) === 0;
    const outboxRows = async () =>
      ((await t.dataSource.query('SELECT count(*)::int AS n FROM job_outbox')) as { n: number }[])[0].n;

    it('Redis cut at the moment a post commits: 201, and the announcement happens once Redis is back', async () => {
      // The create passes the rate limiter (Redis up), then waits on a lock; Redis goes before it commits.
      const locker = await directClient(t.databaseUrl);
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE posts IN SHARE MODE');
      const create = owner
        .post(`/v1/spaces/${spaceId}/posts`, { topic, body: 'committed while Redis is gone' })
        .then((answer) => answer);
      const waiting = async () =>
        (
          await locker.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0].n === 1;
      expect(await eventuallyTrue(waiting)).toBe(true);
      await relay.cut();
      await locker.query('ROLLBACK');
      await locker.end();
      const answer = await create;
      expect(answer.status).toBe(201);

      // Held in the outbox meanwhile, and reported as its backlog: the announcement's row and the
      // webhook fan-out's (docs/decisions/0162-webhook-delivery-state-in-postgresql.md).
      expect(await outboxRows()).toBe(2);
      const { body } = await t.app.get(Metrics).exposition();
      expect(body).toMatch(/^plat_outbox_pending\{outbox="job_outbox"\} 2$/m);
      expect(body).toMatch(/^plat_outbox_pending\{outbox="chain_publications"\} \d+$/m);
      expect(await unannounced()).toBe(1);

      await relay.restore();
      expect(await eventuallyTrue(allAnnounced)).toBe(true);
      expect(await eventuallyTrue(async () => (await outboxRows()) === 0)).toBe(true);
    });

    it('a queued job lost with Redis’s data (restarted empty) is handed on again and runs', async () => {
      // Another replica queues it with a delay, then every job key of that replica goes, as with a
      // Redis restarted empty.
      const delayed = await bootSpaces({
        databaseUrl: t.databaseUrl,
        env: {
          REDIS_URL: REDIS_URL!,
          JOBS_REDIS_PREFIX: `plat:test:${randomUUID()}:jobs`,
          NOTIFY_ANNOUNCE_DELAY_MS: '1500',
          JOB_OUTBOX_SWEEP_MS: '200',
          JOB_OUTBOX_LEASE_MS: '2000',
        },
      });
      try {
        const author = Actor.create(delayed, { identity: owner.identity });
        const answer = await (
          await author
        ).post(`/v1/spaces/${spaceId}/posts`, { topic, body: 'lost in Redis' });
        expect(answer.status).toBe(201);
        await deleteKeys(direct, delayed.config.JOBS_REDIS_PREFIX);
        expect(await eventuallyTrue(allAnnounced)).toBe(true);
        expect(await eventuallyTrue(async () => (await outboxRows()) === 0)).toBe(true);
      } finally {
        await delayed.close();
      }
    });

    it('a job whose retries all failed during a database fault is retried by the sweep after it', async () => {
      // Every attempt of the announcement fails (its fan-out row is refused), 5 attempts over ~1.5 s.
      const repair = await refuseWrites(t.dataSource, 'notification_fanouts', 'INSERT');
      const answer = await owner.post(`/v1/spaces/${spaceId}/posts`, { topic, body: 'retries exhausted' });
      expect(answer.status).toBe(201);
      const failedForGood = async () => {
        const { body } = await t.app.get(Metrics).exposition();
        return new RegExp(`^plat_jobs_total\\{kind="${ANNOUNCE_POST}",outcome="failed"\\} [1-9]`, 'm').test(
          body,
        );
      };
      expect(await eventuallyTrue(failedForGood, 40_000)).toBe(true);
      expect(await unannounced()).toBe(1);
      expect(await outboxRows()).toBe(1);

      await repair();
      expect(await eventuallyTrue(allAnnounced)).toBe(true);
      expect(await eventuallyTrue(async () => (await outboxRows()) === 0)).toBe(true);
    }, 60_000);
  },
);

/** Only this app's keys: other suites run on the same Redis. */
async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys: string[] = [];
  for await (const batch of redis.scanStream({ match: `${prefix}:*`, count: 500 })) {
    keys.push(...(batch as string[]));
  }
  if (keys.length > 0) await redis.del(...keys);
}

/**
 * A PostgreSQL outage longer than a job's retries: its 5 attempts spanned about 15 s,
 * so the announcement ended in BullMQ's failed set for good. The database is reached through a TCP
 * relay and cut after the post is acknowledged; once it is back, the sweep hands the job on again.
 */
(REDIS_URL ? describe : describe.skip)(
  `the job outbox: a PostgreSQL outage longer than the retries${REDIS_URL ? '' : ' [skipped: needs REDIS_URL, a real Redis]'}`,
  () => {
    let relay: TcpRelay;
    let t: TestApp;

    beforeAll(async () => {
      const server = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
      relay = await TcpRelay.start({ host: server.hostname, port: Number(server.port || 5432) });
      t = await bootApp({
        routeDatabase: (url) => relay.route(url),
        env: {
          NOTIFY_ANNOUNCE_DELAY_MS: '300',
          JOB_OUTBOX_SWEEP_MS: '200',
          JOB_OUTBOX_LEASE_MS: '2000',
          // Pauses between the 5 attempts of 0.1 to 0.8 s (1 to 8 s by default): the outage still outlasts them.
          JOBS_RETRY_BACKOFF_MS: '100',
          METRICS_PORT: '0',
          DATABASE_ACQUIRE_TIMEOUT_MS: '2500',
        },
      });
    });

    afterAll(async () => {
      await relay.restore();
      await t.close();
      await relay.close();
    });

    it('the announcement whose every attempt failed during the outage runs once the database is back', async () => {
      const owner = await Actor.create(t);
      const member = await Actor.create(t);
      const spaceId = (await newSpace(owner, 'Outage')).id;
      await admit(owner, spaceId, member);
      const topic = await newTopic(owner, spaceId, 'Talk', 'members');
      const answer = await owner.post(`/v1/spaces/${spaceId}/posts`, { topic, body: 'before the outage' });
      expect(answer.status).toBe(201);
      await relay.cut();

      const failedForGood = async () => {
        const { body } = await t.app.get(Metrics).exposition();
        return new RegExp(`^plat_jobs_total\\{kind="${ANNOUNCE_POST}",outcome="failed"\\} [1-9]`, 'm').test(
          body,
        );
      };
      expect(await eventuallyTrue(failedForGood, 40_000)).toBe(true);

      await relay.restore();
      const unannounced = async () =>
        (
          (await t.app
            .get(DataSource)
            .query(UNANNOUNCED_POSTS)
            .catch(() => [{ unannounced: -1 }])) as {
            unannounced: number;
          }[]
        )[0].unannounced;
      expect(await eventuallyTrue(async () => (await unannounced()) === 0)).toBe(true);
      const rows = async () =>
        (
          (await t.app.get(DataSource).query('SELECT count(*)::int AS n FROM job_outbox')) as { n: number }[]
        )[0].n;
      expect(await eventuallyTrue(async () => (await rows()) === 0)).toBe(true);
    }, 60_000);
  },
);
