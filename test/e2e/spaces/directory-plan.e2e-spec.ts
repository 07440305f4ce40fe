import { CursorCodec } from '../../../src/common/pagination/cursor-codec';
import { seedUnbounded } from '../../support/database';
import { bootSpaces, Caller, expectStatus, publicSpace, SpacesTestApp } from './support';

/**
 * GET /v1/spaces stays a keyset walk over the partial directory indexes at any depth: the SQL the
 * route really runs (captured from TypeORM's logger) is explained against a seeded, analyzed table.
 */
describe('GET /v1/spaces query plans (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
    // A realistic directory: 20 000 spaces, three quarters public, a few deleted, spread over a year.
    await seedUnbounded(t.dataSource, [
      {
        sql: `
      INSERT INTO spaces (id, did, domain, display_name, is_public, join_mode, category, discovery_opt_in,
                          last_activity_at, member_count, deleted_at)
      SELECT gen_random_uuid(), 'did:plat:seed' || i, 'seed-' || i, 'Seed ' || i, i % 4 <> 0,
             (ARRAY['closed', 'open', 'application', 'allowlist'])[1 + i % 4],
             CASE WHEN i % 5 = 0 THEN NULL ELSE 'category ' || (i % 40) END,
             i % 3 = 0,
             CASE WHEN i % 50 = 0 THEN NULL ELSE now() - (i % 365) * interval '1 day' - i * interval '1 second' END,
             1 + i % 100,
             CASE WHEN i % 97 = 0 THEN now() ELSE NULL END
      FROM generate_series(1, 20000) AS i`,
      },
      { sql: 'ANALYZE spaces' },
    ]);
  });

  afterAll(async () => {
    await t.close();
  });

  /** The listing SELECTs the route ran for `path`, with their parameters. */
  async function listingQueries(path: string): Promise<{ sql: string; parameters: unknown[] }[]> {
    const logger = t.dataSource.logger;
    const captured: { sql: string; parameters: unknown[] }[] = [];
    const spy = jest.spyOn(logger, 'logQuery').mockImplementation((sql, parameters) => {
      if (/FROM "spaces"/.test(sql) && /ORDER BY/.test(sql))
        captured.push({ sql, parameters: Array.isArray(parameters) ? parameters : [] });
    });
    try {
      const response = await t.anonymous.get(path);
      expectStatus(response, 200);
      return captured;
    } finally {
      spy.mockRestore();
    }
  }

  async function plan(query: { sql: string; parameters: unknown[] }): Promise<string> {
    const rows: { 'QUERY PLAN': string }[] = await t.dataSource.query(
      `EXPLAIN ${query.sql}`,
      query.parameters,
    );
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  // A position half a year deep: the seek must not read (or sort) what lies before it.
  const deepCursor = () =>
    t.app
      .get(CursorCodec)
      .encode('public-spaces', [
        new Date(Date.now() - 180 * 86_400_000).toISOString(),
        '80000000-0000-7000-8000-000000000000',
      ]);

  async function plansOf(filter: string): Promise<{ path: string; explained: string }[]> {
    const deep = encodeURIComponent(deepCursor());
    const plans: { path: string; explained: string }[] = [];
    for (const path of [
      `/v1/spaces?limit=20&${filter}`,
      `/v1/spaces?limit=20&${filter}&after=${deep}`,
      `/v1/spaces?limit=20&${filter}&before=${deep}`,
    ]) {
      const queries = await listingQueries(path);
      expect(queries).toHaveLength(1);
      plans.push({ path, explained: await plan(queries[0]) });
    }
    return plans;
  }

  it('is an ordered scan of a directory index with no sort for each filter: first page, deep after, deep before', async () => {
    const id = await publicSpace(owner, 'open');
    expectStatus(
      await owner.put(`/spaces/${id}/site`, { category: 'category 7', discoveryOptIn: true }),
      200,
    );
    for (const filter of [
      '',
      'joinMode=open',
      'category=Category%207',
      'optedIn=true',
      'optedIn=false',
      'activeWithinDays=30',
      'joinMode=application&optedIn=true',
    ]) {
      for (const { path, explained } of await plansOf(filter)) {
        expect({ path, explained }).toEqual({
          path,
          explained: expect.stringMatching(/Index (Only )?Scan (Backward )?using idx_spaces_directory/),
        });
        expect({ path, explained }).toEqual({ path, explained: expect.not.stringMatching(/Sort|Seq Scan/) });
      }
    }
  });

  it('combined filters still read through a directory index, never the table', async () => {
    // With every filter at once PostgreSQL may rightly fetch the few matching rows of one index and
    // sort them; what must not happen is a scan of the table.
    for (const { path, explained } of await plansOf(
      'joinMode=open&category=category%207&optedIn=true&activeWithinDays=200',
    )) {
      expect({ path, explained }).toEqual({ path, explained: expect.stringMatching(/idx_spaces_directory/) });
      expect({ path, explained }).toEqual({ path, explained: expect.not.stringMatching(/Seq Scan/) });
    }
  });
});
