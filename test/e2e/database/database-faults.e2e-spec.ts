import request, { Response } from 'supertest';
import { Client } from 'pg';
import { DataSource, QueryRunner } from 'typeorm';
import { Clock } from '../../../src/common/clock/clock';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';
import { ShiftedClock } from '../../support/clock';
import { TcpRelay } from '../../support/network';

const WEDGED_AFTER_MS = 60_000;

/**
 * Database faults (docs/decisions/0065-database-faults.md): PostgreSQL behind a TCP relay that the test blackholes (a partition), cuts
 * (connections reset, new ones refused) or whose backends it terminates. Every such request is
 * answered 503 E_SERVICE_UNAVAILABLE, never 500, and the pool heals by itself once the database
 * answers again. Timeouts are small so a fault is answered in about two seconds.
 */
describe('database faults (e2e)', () => {
  const clock = new ShiftedClock();
  let relay: TcpRelay;
  let t: TestApp;
  let alice: Actor;
  let writes = 0;

  beforeAll(async () => {
    const server = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
    relay = await TcpRelay.start({ host: server.hostname, port: Number(server.port || 5432) });
    t = await bootApp({
      routeDatabase: (url) => relay.route(url),
      env: {
        DATABASE_POOL_SIZE: '3',
        // Generous enough for a new connection on a loaded CI machine.
        DATABASE_ACQUIRE_TIMEOUT_MS: '2500',
        DATABASE_STATEMENT_TIMEOUT_MS: '2000',
        DATABASE_LOCK_TIMEOUT_MS: '1000',
        DATABASE_WEDGED_AFTER_MS: String(WEDGED_AFTER_MS),
      },
      override: (builder) => builder.overrideProvider(Clock).useValue(clock),
    });
    alice = await Actor.create(t, { clock: () => clock.now() });
    expect((await alice.signUp('fault-alice')).status).toBe(201);
  });

  afterEach(async () => {
    await relay.restore();
  });

  afterAll(async () => {
    await t?.close();
    await relay?.close();
  });

  const read = () => request(t.http).get('/v1/users');
  /** A signed write with a fresh jti each time. */
  const write = () => alice.patch('/profile', { bio: `bio ${++writes}` });
  const live = () => request(t.http).get('/health/live');
  /** One signed PATCH /profile, sendable several times byte for byte (same jti). */
  const signedWrite = (body: object) => {
    const headers = alice.headers('PATCH', '/profile');
    return () => request(t.http).patch('/profile').set(headers).send(body);
  };

  /** Runs SQL on the service's database over a direct connection (not through the relay). */
  async function direct<T>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    const url = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
    url.pathname = new URL(t.databaseUrl).pathname;
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query(sql, parameters)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Terminates every backend the service holds on its database; how many. */
  async function terminateBackends(): Promise<number> {
    const rows = await direct(
      `WITH service AS MATERIALIZED (
         SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'plat-api')
       SELECT pid FROM service WHERE pg_terminate_backend(pid)`,
    );
    return rows.length;
  }

  async function waitingOnLocks(): Promise<number> {
    const rows = await direct(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
          AND application_name = 'plat-api' AND wait_event_type = 'Lock'`,
    );
    return rows.length;
  }

  async function committing(): Promise<number> {
    const rows = await direct(
      `SELECT 1 FROM pg_stat_activity WHERE datname = current_database()
          AND application_name = 'plat-api' AND query = 'COMMIT' AND state = 'active'`,
    );
    return rows.length;
  }

  /** Holds an exclusive lock on `table` (over a direct connection) while `work` runs. */
  async function holdingLock(table: string, work: () => Promise<void>): Promise<void> {
    const url = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
    url.pathname = new URL(t.databaseUrl).pathname;
    const holder = new Client({ connectionString: url.toString() });
    await holder.connect();
    try {
      await holder.query(`BEGIN; LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
      await work();
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  }

  /** A trigger that sleeps `seconds` on every row of `table` at `timing`; returns its removal. */
  async function slowOn(table: string, timing: string, seconds: number, deferral = '') {
    const name = `test_slow_${table}_${Date.now()}`;
    await direct(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(${seconds}); RETURN NEW; END $$`);
    await direct(
      `CREATE ${deferral ? 'CONSTRAINT ' : ''}TRIGGER ${name} ${timing} ON ${table} ${deferral}
       FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    );
    return async () => {
      await direct(`DROP TRIGGER ${name} ON ${table}; DROP FUNCTION ${name}()`);
    };
  }

  const ready = () => request(t.http).get('/health/ready');

  function expectUnavailable(response: Response): void {
    expect(response.status).toBe(503);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(Object.keys(response.body as object).sort()).toEqual(['code', 'message']);
    expect(response.body.code).toBe('E_SERVICE_UNAVAILABLE');
    // The replay store (PostgreSQL without Redis) names itself; everything else is the generic text.
    expect(['Service temporarily unavailable', 'Replay protection is unavailable']).toContain(
      response.body.message,
    );
  }

  async function expectServing(): Promise<void> {
    expect((await read()).status).toBe(200);
    const written = await write();
    expect(written.status).toBe(200);
    expect(written.body.bio).toBe(`bio ${writes}`);
    expect((await ready()).status).toBe(200);
  }

  it('blackholed: reads and signed writes answer 503 within the timeouts; restored: 200 again', async () => {
    await expectServing();
    relay.blackhole();
    const started = Date.now();
    const [reading, writing, readiness] = await Promise.all([read(), write(), ready()]);
    expectUnavailable(reading);
    expectUnavailable(writing);
    // A database every replica shares is down: readiness stays 200 so the load balancer keeps the
    // replicas and clients get this JSON 503 (docs/decisions/0119-readiness-without-shared-dependencies.md).
    expect(readiness.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);
    // Still refused while it lasts (connections opened during the partition hang too).
    expectUnavailable(await read());

    await relay.restore();
    await expectServing();
  });

  it('cut: reset connections and refused new ones answer 503; restored: 200 again', async () => {
    await expectServing();
    await relay.cut();
    const [reading, writing, readiness] = await Promise.all([read(), write(), ready()]);
    expectUnavailable(reading);
    expectUnavailable(writing);
    expect(readiness.status).toBe(200);

    await relay.restore();
    await expectServing();
  });

  it('terminated backends (pg_terminate_backend), idle or mid-statement: 503 or 200, never 500, and heal', async () => {
    await expectServing();
    // Idle pooled connections: the pool drops them as PostgreSQL ends them.
    await Promise.all([read(), read(), read()]);
    expect(await terminateBackends()).toBeGreaterThan(0);
    const statuses: number[] = [];
    for (const response of await Promise.all([read(), write(), read()])) {
      statuses.push(response.status);
      if (response.status !== 200) expectUnavailable(response);
    }
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);

    // Connections in the middle of a statement (waiting on a lock the test holds) are 503.
    await holdingLock('users', async () => {
      // supertest sends on then(): start both now.
      const reading = read().then((response) => response);
      const writing = write().then((response) => response);
      await until(async () => (await waitingOnLocks()) >= 2);
      expect(await terminateBackends()).toBeGreaterThan(0);
      expectUnavailable(await reading);
      expectUnavailable(await writing);
    });
    // The pool learns of its terminated idle connections when their sockets close, which a loaded
    // machine may deliver after the next request took one: that request is a 503 (never a 500),
    // and the ones after it are served.
    await until(async () => {
      const response = await read();
      if (response.status !== 200) expectUnavailable(response);
      return response.status === 200;
    });
    await expectServing();
  });

  it('a statement waiting on a lock longer than DATABASE_LOCK_TIMEOUT_MS is 503', async () => {
    await holdingLock('users', async () => {
      const started = Date.now();
      expectUnavailable(await read());
      expect(Date.now() - started).toBeLessThan(1900);
    });
    await expectServing();
  });

  it('a statement over DATABASE_STATEMENT_TIMEOUT_MS is 503 and, rolled back, gives its jti back', async () => {
    const repair = await slowOn('users', 'BEFORE UPDATE', 5);
    const send = signedWrite({ bio: 'slow' });
    try {
      expectUnavailable(await send());
    } finally {
      await repair();
    }
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.body.bio).toBe('slow');
  });

  it('a COMMIT whose answer is lost is 503 and keeps its jti spent (it may have committed)', async () => {
    // The commit takes a second (a deferred trigger); the partition starts while it runs.
    const repair = await slowOn('users', 'AFTER UPDATE', 1, 'DEFERRABLE INITIALLY DEFERRED');
    const send = signedWrite({ bio: 'lost answer' });
    try {
      const answer = send().then((response) => response);
      await until(async () => (await committing()) > 0);
      relay.blackhole();
      expectUnavailable(await answer);
    } finally {
      await relay.restore();
      await repair();
    }
    const replayed = await send();
    expect(replayed.status).toBe(409);
    expect(replayed.body).toEqual({ code: 'E_CONFLICT', message: 'Replayed request' });
    // It had committed: the jti stayed spent for a write that was carried out.
    const stored = await direct<{ bio: string }>('SELECT bio FROM users WHERE did = $1', [alice.did]);
    expect(stored[0].bio).toBe('lost answer');
  });

  it('liveness and readiness fail once the pool has been wedged for DATABASE_WEDGED_AFTER_MS while the database answers', async () => {
    // A wedged pool: every connection held (leaked) while PostgreSQL itself is fine.
    const dataSource = t.app.get(DataSource);
    const held: QueryRunner[] = [];
    for (let i = 0; i < 3; i++) {
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      held.push(runner);
    }
    try {
      expectUnavailable(await read());
      expect((await live()).status).toBe(200);
      clock.offsetMs += WEDGED_AFTER_MS - 1000;
      expect((await live()).status).toBe(200);
      clock.offsetMs += 1000;
      expectUnavailable(await live());
      // This replica cannot serve while the others can: out of the load balancer too.
      expectUnavailable(await ready());
    } finally {
      await Promise.all(held.map((runner) => runner.release()));
    }
    expect((await live()).status).toBe(200);
    await expectServing();
  });

  it('liveness and readiness stay 200 while the database itself cannot be reached (a restart would not help)', async () => {
    relay.blackhole();
    expectUnavailable(await read());
    expect((await live()).status).toBe(200);
    clock.offsetMs += 2 * WEDGED_AFTER_MS;
    expect((await live()).status).toBe(200);

    expect((await ready()).status).toBe(200);

    await relay.restore();
    expect((await live()).status).toBe(200);
    await expectServing();
  });
});

/** Polls `condition` (database state, not time) until it holds; gives up after 200 tries. */
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    if (await condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('condition never held');
}
