import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { TestApp } from '../../support/app';
import { seedUnbounded } from '../../support/database';
import { bootRelayApp } from './support';

const PROFILE = 'https://schemas.dfos.com/profile/v1';
const POST = 'https://schemas.dfos.com/post/v1';
const RARE = 'https://example.com/rare/v1';
const SEEDED = 20_000;

interface Sent {
  text: string;
  values: unknown[];
}

/** The index statement a request sends to PostgreSQL, with its parameters (at the pg client). */
async function statementOf(run: () => Promise<unknown>, names: string): Promise<Sent> {
  const sent: Sent[] = [];
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const [text, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    const sql = typeof text === 'string' ? text : text.text;
    if (sql.includes(names))
      sent.push({ text: sql, values: (typeof text === 'string' ? values : text.values) ?? [] });
    return (query as (...all: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await run();
  } finally {
    Client.prototype.query = query;
  }
  expect(sent).toHaveLength(1);
  return sent[0];
}

/**
 * The relay index's nameContains / titleContains / docSchema filters are served by
 * indexes, not by a scan of every chain (docs/decisions/0121-relay-index-filters.md). The plans are
 * those of the very statements the routes send, on seeded and analyzed tables.
 */
describe('relay index filters use indexes (e2e, EXPLAIN)', () => {
  let t: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    t = await bootRelayApp();
    dataSource = t.app.get(DataSource);
    // Every 4th chain a post, every 4th a profile anchored by an identity; ten of a rare schema.
    await seedUnbounded(dataSource, [
      {
        sql: `INSERT INTO relay_content_chains
         (content_id, creator_did, genesis_cid, head_cid, genesis_at, head_at, op_count, is_deleted,
          current_document_cid, state)
       SELECT 'seed' || lpad(i::text, 8, '0'), 'did:plat:seed', 'g' || i, 'h' || i,
              '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1, false, 'd' || i, '{}'
       FROM generate_series(1, $1::int) i`,
        parameters: [SEEDED],
      },
      {
        sql: `INSERT INTO relay_documents (content_id, document_cid, document, doc_schema, display_name)
       SELECT 'seed' || lpad(i::text, 8, '0'), 'd' || i, '{}',
              CASE WHEN i <= 10 THEN $2 WHEN i % 4 = 1 THEN $3 ELSE $4 END,
              'Seeded ' || md5(i::text)
       FROM generate_series(1, $1::int) i`,
        parameters: [SEEDED, RARE, PROFILE, POST],
      },
      {
        sql: `INSERT INTO relay_identity_chains
         (did, genesis_cid, head_cid, genesis_at, head_at, op_count, is_deleted, state, key_history, profile_anchor)
       SELECT 'did:plat:seed' || lpad(i::text, 8, '0'), 'g' || i, 'h' || i, '2026-01-01T00:00:00.000Z',
              '2026-01-01T00:00:00.000Z', 1, false, '{}', '[]', 'seed' || lpad(i::text, 8, '0')
       FROM generate_series(1, $1::int) i WHERE i % 4 = 1`,
        parameters: [SEEDED],
      },
      { sql: 'ANALYZE relay_content_chains, relay_documents, relay_identity_chains' },
    ]);
  }, 60_000);

  afterAll(async () => {
    await t.close();
  });

  async function planOf(
    path: string,
    names: string,
  ): Promise<{ plan: string; status: number; body: unknown }> {
    let response: request.Response | undefined;
    const sent = await statementOf(async () => {
      response = await request(t.http).get(path);
    }, names);
    const rows = (await dataSource.query(`EXPLAIN ${sent.text}`, sent.values)) as { 'QUERY PLAN': string }[];
    return {
      plan: rows.map((row) => row['QUERY PLAN']).join('\n'),
      status: response!.status,
      body: response!.body,
    };
  }

  // A fragment of one seeded post title: md5('12346') = a3590023df66ac92ae35e3316026d17d.
  const fragment = '23DF66ac92';

  it('titleContains: a bitmap scan of the trigram index, no scan of every chain', async () => {
    const { plan, status, body } = await planOf(
      `/relay/index/v0/content?titleContains=${fragment}`,
      'FROM relay_content_chains c',
    );
    expect(status).toBe(200);
    expect((body as { content: { contentId: string }[] }).content.map((row) => row.contentId)).toEqual([
      'seed00012346',
    ]);
    expect(plan).toContain('idx_relay_documents_display_name_trgm');
    expect(plan).not.toMatch(/Seq Scan on relay_(content_chains|documents)/);
  });

  it('nameContains: the trigram index, then the identity through its profile anchor index', async () => {
    // md5('12341') = f190ce9ac8445d249747cab7be43f7d5; 12341 % 4 = 1: a profile.
    const { plan, status, body } = await planOf(
      '/relay/index/v0/identities?nameContains=9AC8445d',
      'FROM relay_identity_chains i',
    );
    expect(status).toBe(200);
    expect((body as { identities: { did: string }[] }).identities.map((row) => row.did)).toEqual([
      'did:plat:seed00012341',
    ]);
    expect(plan).toContain('idx_relay_documents_display_name_trgm');
    expect(plan).toContain('idx_relay_identity_chains_profile_anchor');
    expect(plan).not.toMatch(/Seq Scan on relay_(identity_chains|content_chains|documents)/);
  });

  it('docSchema: the schema index', async () => {
    const { plan, status, body } = await planOf(
      `/relay/index/v0/content?docSchema=${encodeURIComponent(RARE)}`,
      'FROM relay_content_chains c',
    );
    expect(status).toBe(200);
    expect((body as { content: unknown[] }).content).toHaveLength(10);
    expect(plan).toContain('idx_relay_documents_schema');
    expect(plan).not.toMatch(/Seq Scan on relay_(content_chains|documents)/);
  });

  it('LIKE wildcards in a fragment match themselves', async () => {
    const response = await request(t.http).get('/relay/index/v0/content?titleContains=%25_%25');
    expect(response.status).toBe(200);
    expect(response.body.content).toEqual([]);
  });
});
