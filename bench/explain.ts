import type { Pool } from 'pg';
import type { CapturedStatement } from './pg-counter';
import type { RequestPlan } from './request-plan';
import type { PlanContext } from './scenario-kit';
import { BIG_SPACE, BIG_SPACE_DOMAIN, spaceId, topicId } from './seed-plan';

/**
 * EXPLAIN (ANALYZE, BUFFERS) of every statement the app ran for its listings in the verify step
 * (captured by the counting proxy with their parameters), on the run's seeded database, with the
 * server's own settings (JIT included, as the app runs them). Parameters are bound as the app
 * bound them (text), so the plans are the app's generic-or-custom plans for those values.
 */
export interface ExplainedStatement {
  scenario: string;
  sql: string;
  params: (string | null)[];
  plan: string[];
}

/** SQL as shown in reports: no column aliases, IN lists of placeholders folded (`$2, …, $101`). */
export function compactSql(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ AS "[^"]+"/g, '')
    .replace(/\$(\d+)(?:, \$\d+){3,}, \$(\d+)/g, '$$$1, …, $$$2');
}

/** Parameters as shown in reports: long values cut, long lists folded. */
export function compactParams(params: (string | null)[]): (string | null)[] {
  const cut = params.map((p) => (p !== null && p.length > 60 ? `${p.slice(0, 57)}...` : p));
  return cut.length > 6 ? [...cut.slice(0, 4), `… ${cut.length} parameters in all`] : cut;
}

export async function explainListings(
  pool: Pool,
  listings: { scenario: string; statements: CapturedStatement[] }[],
): Promise<ExplainedStatement[]> {
  const explained: ExplainedStatement[] = [];
  for (const { scenario, statements } of listings) {
    for (const statement of statements) {
      if (!/^\s*(SELECT|WITH)\b/i.test(statement.sql)) continue;
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`,
        statement.params,
      );
      explained.push({
        scenario,
        sql: compactSql(statement.sql),
        params: compactParams(statement.params),
        // Long IN lists (a hundred DIDs) cut short.
        plan: rows.map(({ 'QUERY PLAN': line }) => (line.length > 240 ? `${line.slice(0, 237)}...` : line)),
      });
    }
  }
  return explained;
}

/**
 * Listings with no pair of their own, fetched from the app in the explain step only, so every
 * listing query has its plan: the posts listing's other shapes (topic and format filters, oldest
 * first, date ranges: the bounded count), the space fetch's counter sum, and the caller's own
 * memberships, group memberships and notifications (signed by the bench reader).
 */
export async function explainOnlyRequests(
  context: PlanContext,
): Promise<{ name: string; plan: RequestPlan }[]> {
  const listing = `/v1/spaces/${BIG_SPACE_DOMAIN}/posts?limit=100`;
  const { rows } = await context.pool.query<{ latest: Date }>(
    `SELECT max(published_at) AS latest FROM posts WHERE space_id = $1`,
    [spaceId(BIG_SPACE)],
  );
  const lastHour = new Date(rows[0].latest.getTime() - 3_600_000).toISOString();
  const proof = { actors: [context.actors.reader], perRequest: false, audience: context.audience };
  const get = (name: string, path: string, signed = false) => ({
    name,
    plan: { method: 'GET' as const, path, ...(signed ? { proof } : {}) },
  });
  return [
    get('posts listing, topic filter', `${listing}&topic=topic_${topicId(BIG_SPACE, 0).replace(/-/g, '')}`),
    get('posts listing, format=long-post&sort=oldest', `${listing}&format=long-post&sort=oldest`),
    get(
      'posts listing, publishedAfter over the whole space (bounded count, totalCount omitted)',
      `${listing}&publishedAfter=2000-01-01T00:00:00.000Z`,
    ),
    get(
      'posts listing, publishedAfter the last hour (small range, counted)',
      `${listing}&publishedAfter=${lastHour}`,
    ),
    get('space single fetch (privatePostCountSummary)', `/v1/spaces/${BIG_SPACE_DOMAIN}`),
    get('GET /v1/memberships (the reader: 32 spaces)', '/v1/memberships?limit=100', true),
    get('GET /v1/group-memberships (the reader: none)', '/v1/group-memberships?limit=100', true),
    get('GET /notifications (the reader: none)', '/notifications?limit=100', true),
  ];
}
