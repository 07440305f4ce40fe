import { Client } from 'pg';
import { startStatementCounter, type StatementCounter } from '../../../bench/pg-counter';

/** The bench's counting proxy, in front of the test run's PostgreSQL server. */
describe('bench statement counter', () => {
  let counter: StatementCounter;
  let client: Client;

  beforeAll(async () => {
    const admin = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
    counter = await startStatementCounter(
      { host: admin.hostname, port: Number(admin.port || 5432) },
      { capture: true },
    );
    admin.hostname = '127.0.0.1';
    admin.port = String(counter.port);
    client = new Client({ connectionString: admin.toString() });
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
    await counter.close();
  });

  it('counts each executed statement, simple or extended, BEGIN and COMMIT included', async () => {
    counter.takeCaptured();
    const before = counter.count();
    await client.query('BEGIN');
    await client.query('SELECT $1::int + $2::int AS n', [1, 2]);
    await client.query({ name: 'named', text: 'SELECT $1::text AS t', values: ['once'] });
    await client.query({ name: 'named', text: 'SELECT $1::text AS t', values: [null] });
    await client.query('COMMIT');
    expect(counter.count() - before).toBe(5);
    expect(counter.takeCaptured()).toEqual([
      { sql: 'BEGIN', params: [] },
      { sql: 'SELECT $1::int + $2::int AS n', params: ['1', '2'] },
      { sql: 'SELECT $1::text AS t', params: ['once'] },
      // A named statement is parsed once; its later executions still count, with their text.
      { sql: 'SELECT $1::text AS t', params: [null] },
      { sql: 'COMMIT', params: [] },
    ]);
  });

  it('forwards the answers untouched, however large', async () => {
    const { rows } = await client.query<{ s: string }>("SELECT repeat('x', 200000) AS s");
    expect(rows[0].s).toHaveLength(200_000);
  });
});
