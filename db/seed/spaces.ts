import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';

/**
 * Seed spaces: public spaces with activity for the directory (GET /v1/spaces) and its benchmark,
 * plus some private and deleted ones so the partial indexes have something to leave out. Rows match
 * the migrated schema (db/migrations/*-Spaces.ts) and are inserted with one multi-row
 * `INSERT … SELECT FROM unnest(…)` per batch, in a transaction per batch.
 *
 * Identities: space DIDs are syntactically valid `did:plat:` ids (31 characters of the ID alphabet)
 * with NO identity chain behind them; the relay knows none of them (a real space's chain is signed
 * by the origin key when the API creates it). Member DIDs are the same. The service treats a space
 * without a chain as one with no `protocol` block.
 */

export type Rng = () => number;

export interface SeedSpaceRow {
  id: string;
  did: string;
  domain: string;
  displayName: string;
  description: string | null;
  links: { url: string; label: string | null; description: string | null }[];
  joinMode: 'open' | 'closed' | 'application';
  isPublic: boolean;
  siteMode: 'join' | 'posts';
  subscribeEnabled: boolean;
  category: string | null;
  discoveryOptIn: boolean;
  memberCount: number;
  lastActivityAt: Date;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SeedMembershipRow {
  spaceId: string;
  memberDid: string;
  role: 'owner' | 'member';
  joinedAt: Date;
}

export interface GeneratedSpaces {
  spaces: SeedSpaceRow[];
  memberships: SeedMembershipRow[];
}

const ID_ALPHABET = '2346789acdefhknrtvz';
const DAY_MS = 86_400_000;
const CATEGORIES = [
  'gaming',
  'art',
  'music',
  'technology',
  'science',
  'books',
  'sports',
  'cooking',
  'travel',
  'photography',
  'education',
  'open source',
];
const ADJECTIVES = [
  'Quiet',
  'Bright',
  'Northern',
  'Open',
  'Little',
  'Golden',
  'Wild',
  'Hidden',
  'Urban',
  'Slow',
];
const NOUNS = [
  'Harbor',
  'Garden',
  'Workshop',
  'Library',
  'Circle',
  'Studio',
  'Guild',
  'Lab',
  'Club',
  'Commons',
];

/** Of every 100 rows: 88 public and live, 10 private, 2 public but deleted. */
const PRIVATE_PER_100 = 10;
const DELETED_PER_100 = 2;

/** mulberry32: a small seeded PRNG, so tests (and SEED_RANDOM) get the same rows every time. */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomRng(): Rng {
  return seededRng(randomBytes(4).readUInt32LE(0));
}

const pick = <T>(rng: Rng, values: readonly T[]): T => values[Math.floor(rng() * values.length)];

function hex(rng: Rng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += Math.floor(rng() * 16).toString(16);
  return out;
}

/** A syntactically valid `did:plat:` (no chain behind it). */
export function fakeDid(rng: Rng): string {
  let id = '';
  for (let i = 0; i < 31; i++) id += pick(rng, ID_ALPHABET.split(''));
  return `did:plat:${id}`;
}

/** A UUIDv7 for `at` (time-ordered like the service's ids), random bits from `rng`. */
export function uuidV7(at: Date, rng: Rng): string {
  const ms = at.getTime().toString(16).padStart(12, '0').slice(-12);
  const variant = (8 + Math.floor(rng() * 4)).toString(16);
  const h = `${ms}7${hex(rng, 3)}${variant}${hex(rng, 15)}`;
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * `total` spaces numbered from `offset` (the number only names them). Public live spaces are
 * exactly those with `isPublic && !deletedAt`; `publicLive` counts them.
 */
export function generateSpaces(options: {
  offset: number;
  total: number;
  now: Date;
  rng: Rng;
}): GeneratedSpaces & { publicLive: number } {
  const { rng, now } = options;
  const spaces: SeedSpaceRow[] = [];
  const memberships: SeedMembershipRow[] = [];
  let publicLive = 0;
  for (let i = 0; i < options.total; i++) {
    const n = options.offset + i;
    const slot = n % 100;
    const isPublic = slot >= PRIVATE_PER_100;
    const deleted = isPublic && slot < PRIVATE_PER_100 + DELETED_PER_100;
    // Skewed towards recent activity: half the spaces were active within the last ~3 months.
    const lastActivityAt = new Date(now.getTime() - Math.floor(rng() ** 2 * 365 * DAY_MS));
    const createdAt = new Date(lastActivityAt.getTime() - Math.floor(rng() * 730 * DAY_MS));
    const id = uuidV7(createdAt, rng);
    const name = `${pick(rng, ADJECTIVES)} ${pick(rng, NOUNS)} ${n}`;
    const others = Math.floor(rng() ** 3 * 8);
    const ownerDid = fakeDid(rng);
    memberships.push({ spaceId: id, memberDid: ownerDid, role: 'owner', joinedAt: createdAt });
    for (let m = 0; m < others; m++) {
      const joinedAt = new Date(
        createdAt.getTime() + Math.floor(rng() * (lastActivityAt.getTime() - createdAt.getTime())),
      );
      memberships.push({ spaceId: id, memberDid: fakeDid(rng), role: 'member', joinedAt });
    }
    const linkCount = Math.floor(rng() * 3);
    spaces.push({
      id,
      did: fakeDid(rng),
      // Half keep the default `space-<hex>` form, half claimed a name.
      domain: rng() < 0.5 ? `space-${id.replace(/-/g, '')}` : `seed-${n.toString(36)}-${hex(rng, 6)}`,
      displayName: name,
      description: rng() < 0.8 ? `${name}: a seeded space for the directory benchmark.` : null,
      links: Array.from({ length: linkCount }, (_, k) => ({
        url: `https://example.com/${n}/${k}`,
        label: rng() < 0.5 ? `Link ${k + 1}` : null,
        description: null,
      })),
      joinMode: pick(rng, ['open', 'open', 'closed', 'application'] as const),
      isPublic,
      siteMode: rng() < 0.7 ? 'join' : 'posts',
      subscribeEnabled: rng() < 0.2,
      category: rng() < 0.7 ? pick(rng, CATEGORIES) : null,
      discoveryOptIn: rng() < 0.6,
      memberCount: 1 + others,
      lastActivityAt,
      deletedAt: deleted ? lastActivityAt : null,
      createdAt,
      updatedAt: lastActivityAt,
    });
    if (isPublic && !deleted) publicLive += 1;
  }
  return { spaces, memberships, publicLive };
}

export interface SeedSpacesOptions {
  /** Public live spaces wanted (at least); existing ones count. */
  count: number;
  /** Rows per INSERT (default 2000). */
  batchSize?: number;
  now?: Date;
  rng?: Rng;
  log?: (message: string) => void;
}

export interface SeedSpacesResult {
  /** Public live spaces with activity before seeding. */
  existing: number;
  /** Rows inserted (public live, private and deleted). */
  insertedSpaces: number;
  insertedMemberships: number;
  /** Public live spaces with activity after seeding. */
  publicLive: number;
}

/** Tops the database up to `count` public live spaces with activity; a second call does nothing. */
export async function seedSpaces(pool: Pool, options: SeedSpacesOptions): Promise<SeedSpacesResult> {
  const log = options.log ?? (() => undefined);
  const rng = options.rng ?? randomRng();
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? 2000;
  const existing = await countPublicLive(pool);
  let publicLive = existing;
  let insertedSpaces = 0;
  let insertedMemberships = 0;
  if (existing >= options.count) return { existing, insertedSpaces, insertedMemberships, publicLive };

  const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM spaces');
  let offset = Number(rows[0].n);
  log(`spaces: ${existing} public live, topping up to ${options.count}`);
  while (publicLive < options.count) {
    // Enough rows that the public live share of them covers what is missing (88 of every 100).
    const missing = options.count - publicLive;
    const total = Math.min(
      batchSize,
      Math.ceil((missing * 100) / (100 - PRIVATE_PER_100 - DELETED_PER_100)) + 1,
    );
    const batch = generateSpaces({ offset, total, now, rng });
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await insertSpaces(client, batch.spaces);
      await insertMemberships(client, batch.memberships);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    offset += total;
    publicLive += batch.publicLive;
    insertedSpaces += batch.spaces.length;
    insertedMemberships += batch.memberships.length;
    log(`spaces: ${insertedSpaces} inserted (${publicLive} public live)`);
  }
  // Fresh statistics, so the planner picks the directory indexes the service relies on.
  await pool.query('ANALYZE spaces');
  await pool.query('ANALYZE space_memberships');
  return { existing, insertedSpaces, insertedMemberships, publicLive };
}

export async function countPublicLive(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM spaces WHERE is_public AND deleted_at IS NULL AND last_activity_at IS NOT NULL',
  );
  return Number(rows[0].n);
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

async function insertSpaces(client: PoolClient, spaces: SeedSpaceRow[]): Promise<void> {
  await client.query(
    `INSERT INTO spaces (id, did, domain, display_name, description, links, join_mode, is_public,
       site_mode, subscribe_enabled, category, discovery_opt_in, member_count, last_activity_at,
       deleted_at, created_at, updated_at)
     SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::varchar[], $5::varchar[],
       $6::jsonb[], $7::varchar[], $8::boolean[], $9::varchar[], $10::boolean[], $11::varchar[],
       $12::boolean[], $13::integer[], $14::timestamptz[], $15::timestamptz[], $16::timestamptz[],
       $17::timestamptz[])`,
    [
      spaces.map((s) => s.id),
      spaces.map((s) => s.did),
      spaces.map((s) => s.domain),
      spaces.map((s) => s.displayName),
      spaces.map((s) => s.description),
      spaces.map((s) => JSON.stringify(s.links)),
      spaces.map((s) => s.joinMode),
      spaces.map((s) => s.isPublic),
      spaces.map((s) => s.siteMode),
      spaces.map((s) => s.subscribeEnabled),
      spaces.map((s) => s.category),
      spaces.map((s) => s.discoveryOptIn),
      spaces.map((s) => s.memberCount),
      spaces.map((s) => iso(s.lastActivityAt)),
      spaces.map((s) => iso(s.deletedAt)),
      spaces.map((s) => iso(s.createdAt)),
      spaces.map((s) => iso(s.updatedAt)),
    ],
  );
}

async function insertMemberships(client: PoolClient, memberships: SeedMembershipRow[]): Promise<void> {
  await client.query(
    `INSERT INTO space_memberships (space_id, member_did, role, status, joined_at, created_at, updated_at)
     SELECT s, d, r, 'active', j, j, j
     FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::timestamptz[]) AS m(s, d, r, j)`,
    [
      memberships.map((m) => m.spaceId),
      memberships.map((m) => m.memberDid),
      memberships.map((m) => m.role),
      memberships.map((m) => iso(m.joinedAt)),
    ],
  );
}
