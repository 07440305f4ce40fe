import { randomUUID } from 'node:crypto';
import { drain } from '../../../src/infrastructure/health/drain';
import { Actor } from '../../support/actors';
import { directClient, UNANNOUNCED_POSTS } from './faults-support';
import { eventuallyTrue } from '../../support/eventually';
import { admit, bootSpaces, newSpace, newTopic, person, SpacesTestApp } from '../posts/support';

/**
 * SIGTERM loses no announcement (docs/decisions/0125-no-background-work-lost.md). Nest's app.close() closed the job queue (a module's destroy hook)
 * before in-flight requests finished, so posts answered 201 and their announcement failed with
 * "Connection is closed" (4 concurrent creates, SIGTERM at 1 s: 4 of 4 lost). The drain now stops
 * taking requests and lets them finish before anything closes.
 */
describe('posts in flight at SIGTERM are all announced (0125-no-background-work-lost)', () => {
  const prefix = `plat:test:${randomUUID()}:jobs`;
  // Without Redis the stopped replica's queue dies with it: the other's outbox sweep takes its jobs.
  const env = {
    NOTIFY_ANNOUNCE_DELAY_MS: '0',
    JOBS_REDIS_PREFIX: prefix,
    JOB_OUTBOX_SWEEP_MS: '200',
    JOB_OUTBOX_LEASE_MS: '1000',
  };
  let t: SpacesTestApp;
  let replica: SpacesTestApp | undefined;
  let owner: Actor;
  let authors: Actor[];
  let spaceId: string;
  let topic: string;

  beforeAll(async () => {
    t = await bootSpaces({ env });
    await t.app.listen(0, '127.0.0.1');
    owner = await person(t);
    spaceId = (await newSpace(owner, 'Draining')).id;
    // Four authors: one person's writes may wait for each other before they reach the database.
    authors = await Promise.all(Array.from({ length: 4 }, () => person(t)));
    for (const author of authors) await admit(owner, spaceId, author);
    topic = await newTopic(owner, spaceId, 'Talk', 'members');
  });

  afterAll(async () => {
    await replica?.close();
    await t.close();
  });

  it('four concurrent creates in flight when the drain starts: every 201 is announced', async () => {
    // The creates wait on a lock of the posts table, so all four are in flight when the drain starts.
    const locker = await directClient(t.databaseUrl);
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE posts IN SHARE MODE');
    // Sent now (supertest sends on `then`).
    const creates = authors.map((author, index) =>
      author
        .post(`/v1/spaces/${spaceId}/posts`, { topic, body: `in flight ${index}` })
        .then((answer) => answer),
    );
    const waiting = async () =>
      (
        await locker.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      ).rows[0].n === 4;
    expect(await eventuallyTrue(waiting)).toBe(true);

    const draining = drain(t.app);
    // Long enough for a shutdown that closes the queue first (as before) to have closed it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await locker.query('ROLLBACK');
    await locker.end();
    const answers = await Promise.all(creates);
    await draining;
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);

    // Another replica (same database, same queue) runs what the stopped one queued.
    replica = await bootSpaces({ env, databaseUrl: t.databaseUrl });
    const unannounced = async () =>
      ((await replica!.dataSource.query(UNANNOUNCED_POSTS)) as { unannounced: number }[])[0].unannounced;
    expect(await eventuallyTrue(async () => (await unannounced()) === 0)).toBe(true);
  });
});
