import { DataSource, QueryRunner } from 'typeorm';
import { eventually } from '../../support/eventually';
import {
  bootSpaces,
  expectStatus,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from '../posts/support';

/**
 * Searches are bounded per process (docs/decisions/0184-search-slots.md): SEARCH_CONCURRENCY at
 * once, SEARCH_QUEUE waiting, past that a 503 in the error envelope with Retry-After at once. A
 * search is held in its slot by a lock another transaction keeps on `posts`.
 */
describe('search slots (e2e)', () => {
  let t: SpacesTestApp;
  let space: { id: string; did: string };
  let locker: QueryRunner;

  beforeAll(async () => {
    t = await bootSpaces({ env: { SEARCH_CONCURRENCY: '1', SEARCH_QUEUE: '1' } });
    const owner = await person(t);
    space = await newSpace(owner, 'Slots');
    await makePublic(owner, space.id);
    const topic = await newTopic(owner, space.id, 'Open', 'public');
    await newPost(owner, space.id, { topic, title: 'Lantern walk', body: 'By the river' });
    locker = t.app.get(DataSource).createQueryRunner();
  });

  afterAll(async () => {
    await locker?.release();
    await t?.close();
  });

  const search = () => t.anonymous.get(`/v1/spaces/${space.id}/search?q=lantern`);

  it('runs one search at once, queues one, and refuses the next with a 503 and Retry-After', async () => {
    expectStatus(await search(), 200);
    await locker.startTransaction();
    await locker.query('LOCK TABLE posts IN ACCESS EXCLUSIVE MODE');
    const running = search();
    const queued = search();
    // The first holds the slot, blocked on the lock; the second waits its turn.
    const blocked = await eventually(
      async () =>
        (
          await t.dataSource.query(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%searchable_posts%'",
          )
        )[0].n as number,
      (n) => n === 1,
    );
    expect(blocked).toBe(1);
    const refused = await search();
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toEqual({
      code: 'E_SERVICE_UNAVAILABLE',
      message: 'Too many searches are running; retry shortly',
    });
    await locker.commitTransaction();
    const [first, second] = await Promise.all([running, queued]);
    expectStatus(first, 200);
    expectStatus(second, 200);
    expect(first.body.items).toHaveLength(1);
    // Slots freed: the next search runs.
    expectStatus(await search(), 200);
  });
});
