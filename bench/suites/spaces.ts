import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { seedSpaces } from '../../db/seed/spaces';
import { wordedSummary } from '../../src/common/summaries/worded-summary';
import { walkCursors, type PageEnvelope } from '../cursor-walk';
import { SkipScenario, type BaselineHandler, type Scenario, type SetupContext } from '../scenario-kit';
import { stateOf } from './bare-proof';

/**
 * The public space directory (issue 5 item 8), on a database seeded with BENCH_SPACES (default
 * 10000) public spaces with activity (db/seed/spaces.ts, topped up once per database):
 *
 * - `spaces first page`: GET /v1/spaces?limit=100.
 * - `spaces deep page`: the page after walking BENCH_SPACES_DEPTH (default 50) pages of 100 by
 *   their cursors; its figures beside the first page's show whether cost grows with depth (a keyset
 *   page should not: it is one backward index scan from the cursor, no OFFSET).
 * - `spaces single fetch`: GET /v1/spaces/{space} by a claimed subdomain.
 *
 * Bare baselines: the equivalent keyset query (`(last_activity_at, id) < ($1, $2)` over the
 * directory's partial index, 101 rows for a page of 100, only the card's columns), an HMAC-checked
 * cursor of their own at the same position (setup checks both sides list the same spaces from
 * there), and the cards with next/previous cursors as JSON; the single fetch selects the live
 * space by domain (every column) and reads its identity state (cached) for the protocol block.
 *
 * Guarded: the routes are being written; every scenario here is skipped while the service's
 * OpenAPI document lacks `/v1/spaces` or `/v1/spaces/{…}`.
 */

const PAGE = 100;
const FIRST_PAGE = `/v1/spaces?limit=${PAGE}`;

function spacesWanted(): number {
  return positiveInteger('BENCH_SPACES', positiveInteger('SEED_SPACES', 10_000));
}

function depthWanted(): number {
  return positiveInteger('BENCH_SPACES_DEPTH', 50);
}

async function ready(context: SetupContext): Promise<void> {
  await context.shared('spaces routes', () => requireRoutes(context.serviceUrl));
  await context.shared('spaces seed', async () => {
    const count = spacesWanted();
    const result = await seedSpaces(context.pool, { count, log: context.log });
    context.log(
      `spaces: ${result.publicLive} public with activity (${result.insertedSpaces} inserted this run)`,
    );
    return result;
  });
}

async function requireRoutes(serviceUrl: string): Promise<void> {
  const response = await fetch(`${serviceUrl}/openapi.json`);
  if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
  const paths = Object.keys(((await response.json()) as { paths?: object }).paths ?? {});
  const missing = [
    paths.includes('/v1/spaces') ? null : 'GET /v1/spaces',
    paths.some((path) => /^\/v1\/spaces\/\{[^}/]+\}$/.test(path)) ? null : 'GET /v1/spaces/{space}',
  ].filter((route): route is string => route !== null);
  if (missing.length > 0)
    throw new SkipScenario(`${missing.join(' and ')} not in the service's OpenAPI document yet`);
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

interface DeepPosition {
  path: string;
  baselinePath: string;
  note: string;
}

async function deepPosition(context: SetupContext): Promise<DeepPosition> {
  const depth = depthWanted();
  const walk = await walkCursors<{ id: string }>(
    (cursor) =>
      getJson<PageEnvelope<{ id: string }>>(
        `${context.serviceUrl}${FIRST_PAGE}${cursor === null ? '' : `&after=${encodeURIComponent(cursor)}`}`,
      ),
    depth,
  );
  // The same position for the baseline: the keyset of the last item the service listed.
  const uuid = uuidOf(walk.lastItem.id);
  const { rows } = await context.pool.query<{ last_activity_at: Date }>(
    'SELECT last_activity_at FROM spaces WHERE id = $1',
    [uuid],
  );
  if (!rows[0])
    throw new Error(`the last space of page ${depth} (${walk.lastItem.id}) is not in the database`);
  const path = `${FIRST_PAGE}&after=${encodeURIComponent(walk.cursor)}`;
  const baselineCursor = encodeCursor([rows[0].last_activity_at.toISOString(), uuid]);
  // Both sides must list the same spaces from there, or the ratio compares different work.
  const service = await getJson<PageEnvelope<{ id: string }>>(`${context.serviceUrl}${path}`);
  const bare = await listPage(context.pool, PAGE, [rows[0].last_activity_at.toISOString(), uuid]);
  const same =
    service.items.length === bare.items.length &&
    service.items.every((item, i) => item.id === bare.items[i].id);
  if (!same)
    throw new Error(`the service's page ${depth + 1} differs from the keyset query's at the same position`);
  return {
    path,
    baselinePath: `${FIRST_PAGE}&after=${encodeURIComponent(baselineCursor)}`,
    note: `page ${depth + 1}, after ${walk.items} spaces (same ${service.items.length} spaces on both sides)`,
  };
}

export const spacesScenarios: Scenario[] = [
  {
    name: 'spaces first page',
    method: 'GET',
    path: FIRST_PAGE,
    setup: async (context) => {
      await ready(context);
    },
    baseline: listBaseline(),
  },
  {
    name: 'spaces deep page',
    method: 'GET',
    path: FIRST_PAGE,
    relativeTo: 'spaces first page',
    setup: async (context) => {
      await ready(context);
      return context.shared('spaces deep position', () => deepPosition(context));
    },
    baseline: listBaseline(),
  },
  {
    name: 'spaces single fetch',
    method: 'GET',
    path: '/v1/spaces/{space}',
    setup: async (context) => {
      await ready(context);
      const { rows } = await context.pool.query<{ domain: string }>(
        // Any one: ordering by DID picks an arbitrary seeded space, not the most recent.
        `SELECT domain FROM spaces WHERE is_public AND deleted_at IS NULL AND domain LIKE 'seed-%'
         ORDER BY did LIMIT 1`,
      );
      if (!rows[0]) throw new Error('no seeded space with a claimed subdomain');
      return { path: `/v1/spaces/${rows[0].domain}`, note: `by subdomain ${rows[0].domain}` };
    },
    baseline: async ({ pool, url }) => {
      const reference = decodeURIComponent(url.pathname.slice('/v1/spaces/'.length));
      const { rows } = await pool.query<SpaceRow>(
        'SELECT * FROM spaces WHERE domain = $1 AND deleted_at IS NULL LIMIT 1',
        [reference],
      );
      const space = rows[0];
      if (!space || !space.is_public) return { status: 404, body: { error: 'not found' } };
      const state = await stateOf(pool, space.did);
      const questions = space.application_questions ?? [];
      return {
        body: {
          id: `space_${space.id.replace(/-/g, '')}`,
          did: space.did,
          domain: space.domain,
          displayName: space.display_name,
          description: space.description,
          avatarUrl: null,
          headerUrl: null,
          links: space.links.map((l) => ({ url: l.url, label: l.label, description: l.description })),
          joinMode: space.join_mode,
          siteMode: space.site_mode,
          subscribeEnabled: space.subscribe_enabled,
          memberCountSummary: wordedSummary(space.member_count, 'members'),
          // What the service says until posts exist (nothing counted yet).
          privatePostCountSummary: 'no private posts',
          ...(space.join_mode === 'application' && questions.length > 0
            ? { applicationQuestions: questions }
            : {}),
          ...(space.category ? { category: space.category } : {}),
          verifiedDomain: space.verified_domain,
          ...(state ? { protocol: { headOpCid: state.headCid } } : {}),
          createdAt: space.created_at.toISOString(),
        },
      };
    },
  },
];

// -------------------------------------------------------------------------------------------------
// bare listing

type Keyset = [string, string];

// The same work as the service's cursors: AES-256-GCM, the listing as associated data.
const CURSOR_KEY = Buffer.from(
  hkdfSync('sha256', Buffer.from('plat-bench-baseline-cursor-secret'), Buffer.alloc(0), 'bench cursor', 32),
);
const LISTING = Buffer.from('bench:spaces');

export function encodeCursor(values: Keyset): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', CURSOR_KEY, iv).setAAD(LISTING);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(values), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The keyset of a cursor this baseline issued, or null for anything else. */
export function decodeCursor(cursor: string): Keyset | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length <= 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', CURSOR_KEY, bytes.subarray(0, 12))
      .setAAD(LISTING)
      .setAuthTag(bytes.subarray(bytes.length - 16));
    const text = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
    const values: unknown = JSON.parse(text.toString('utf8'));
    if (Array.isArray(values) && values.length === 2 && values.every((v) => typeof v === 'string'))
      return values as Keyset;
  } catch {
    // fall through
  }
  return null;
}

interface CardRow {
  id: string;
  did: string;
  domain: string;
  display_name: string | null;
  description: string | null;
  links: { url: string; label: string | null; description: string | null }[];
  member_count: number;
  verified_domain: string | null;
  category: string | null;
  last_activity_at: Date;
}

interface SpaceRow extends CardRow {
  join_mode: string;
  site_mode: string;
  subscribe_enabled: boolean;
  is_public: boolean;
  application_questions: { question: string; isRequired: boolean }[] | null;
  created_at: Date;
}

const DIRECTORY = 'is_public AND deleted_at IS NULL AND last_activity_at IS NOT NULL';
const CARD_COLUMNS =
  'id, did, domain, display_name, description, links, member_count, verified_domain, category, last_activity_at';

/** One page of cards from `after` (exclusive), newest activity first, plus the next cursor's keyset. */
async function listPage(
  pool: Pool,
  limit: number,
  after: Keyset | null,
): Promise<{ items: Record<string, unknown>[]; first: Keyset | null; next: Keyset | null }> {
  const { rows } = after
    ? await pool.query<CardRow>(
        `SELECT ${CARD_COLUMNS} FROM spaces WHERE ${DIRECTORY} AND (last_activity_at, id) < ($2::timestamptz, $3::uuid)
         ORDER BY last_activity_at DESC, id DESC LIMIT $1`,
        [limit + 1, after[0], after[1]],
      )
    : await pool.query<CardRow>(
        `SELECT ${CARD_COLUMNS} FROM spaces WHERE ${DIRECTORY} ORDER BY last_activity_at DESC, id DESC LIMIT $1`,
        [limit + 1],
      );
  const page = rows.slice(0, limit);
  const keyset = (row: CardRow | undefined): Keyset | null =>
    row ? [row.last_activity_at.toISOString(), row.id] : null;
  return {
    items: page.map((row) => ({
      id: `space_${row.id.replace(/-/g, '')}`,
      did: row.did,
      domain: row.domain,
      displayName: row.display_name,
      description: row.description,
      avatarUrl: null,
      links: row.links.map((l) => ({ url: l.url, label: l.label, description: l.description })),
      memberCountSummary: wordedSummary(row.member_count, 'members'),
      verifiedDomain: row.verified_domain,
      ...(row.category ? { category: row.category } : {}),
    })),
    first: keyset(page[0]),
    next: rows.length > limit ? keyset(page[page.length - 1]) : null,
  };
}

function listBaseline(): BaselineHandler {
  return async ({ pool, url }) => {
    const limit = Number(url.searchParams.get('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return { status: 400, body: { error: 'limit' } };
    const cursor = url.searchParams.get('after');
    const after = cursor === null ? null : decodeCursor(cursor);
    if (cursor !== null && after === null) return { status: 400, body: { error: 'Invalid cursor' } };
    const page = await listPage(pool, limit, after);
    return {
      body: {
        items: page.items,
        nextCursor: page.next ? encodeCursor(page.next) : null,
        previousCursor: after && page.first ? encodeCursor(page.first) : null,
      },
    };
  };
}

function uuidOf(wireId: string): string {
  const hex = /^space_([0-9a-f]{32})$/.exec(wireId)?.[1];
  if (!hex) throw new Error(`not a space id: ${wireId}`);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}
