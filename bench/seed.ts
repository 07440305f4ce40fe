import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { DAY_MS } from '../src/events/domain/event-window';
import { HORIZON_AHEAD_DAYS, HORIZON_BEHIND_DAYS } from '../src/events/domain/occurrences';
import { OccurrenceSeries } from '../src/events/domain/recurrence/occurrence-series';
import { migrateDatabase } from '../src/infrastructure/database/migrate';
import {
  BIG_SPACE,
  BIG_SPACE_DOMAIN,
  DELETED_PER_100,
  EVENTS_PER_SPACE,
  FIRST_OTHER_SPACE,
  LINK_CARD_POSTS,
  LINK_CARD_TITLE,
  LINK_CARD_URLS,
  linkCardBody,
  OTHER_EVENTS,
  SMALL_SPACE,
  SMALL_SPACE_DOMAIN,
  md5Uuid,
  sqlDid,
  STORE_PRODUCTS,
  STORE_RELEASE_SLUG,
  THREAD_POST,
  TOPICS,
  type SeedPlan,
} from './seed-plan';
import { displayTitleOf, excerptOf, slugOf } from '../src/posts/domain/post-text';
import { postTexts, TEXT_VARIANTS } from './seed-texts';

/**
 * The bench database: the app's migrations, then the seed written with set-based SQL
 * (generate_series) into a template database. Later runs clone the template (a file copy) while
 * the migrations, the seed code, the app's card text rules and the plan are unchanged; the name
 * of the template carries a hash of all four. Every run measures a fresh clone, so writes of an
 * earlier run never leak into the next.
 *
 * Rows are what the app would have written: card text (excerpt, display_title, card_text_at =
 * updated_at) and slugs come from the app's own functions (bench/seed-texts.ts), post_topic_counts
 * is filled by the same statement as its migration's backfill, comment_count, reply_count,
 * upvote_count, member_count and last_activity_at are counted from the seeded rows. Seeded public
 * posts carry no content chain (as posts whose publication is still pending in the outbox): their
 * cards have no `protocol` member; signing a million chains would be the seed's whole cost.
 */

const TEMPLATE_PREFIX = 'plat_bench_tpl_';
export const RUN_DATABASE = 'plat_bench_run';

export interface BenchDatabaseCopy {
  /** URL of the run's fresh clone. */
  url: string;
  template: string;
  /** Whether the template was built in this run (else reused). */
  built: boolean;
  seconds: number;
}

/**
 * A fresh clone of the seeded template on the server of `serverUrl` (whose own database is only
 * used to create and drop the bench's), building the template first when none matches.
 */
export async function prepareBenchDatabase(
  serverUrl: string,
  root: string,
  plan: SeedPlan,
  log: (message: string) => void,
): Promise<BenchDatabaseCopy> {
  const started = Date.now();
  const template = `${TEMPLATE_PREFIX}${fingerprint(root, plan)}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  let built = false;
  try {
    const { rows } = await admin.query<{ datname: string; ready: string | null }>(
      `SELECT datname, shobj_description(oid, 'pg_database') AS ready FROM pg_database WHERE datname LIKE $1`,
      [`${TEMPLATE_PREFIX}%`],
    );
    const ready = rows.some((row) => row.datname === template && row.ready !== null);
    const planText = JSON.stringify(plan);
    for (const row of rows) {
      // What an interrupted build left behind, and this plan's templates of older code; other
      // plans' templates stay (a quick run and a full one alternate without reseeding).
      const stale = row.ready === null || (row.ready === planText && row.datname !== template);
      if (stale) {
        log(`dropping ${row.datname}`);
        await admin.query(`DROP DATABASE IF EXISTS ${quote(row.datname)} WITH (FORCE)`);
      }
    }
    if (!ready) {
      log(`building ${template} (migrations, then ${plan.posts.toLocaleString('en')} posts)`);
      await admin.query(`CREATE DATABASE ${quote(template)}`);
      const templateUrl = withDatabase(serverUrl, template);
      await migrateDatabase(templateUrl);
      await seed(templateUrl, plan, log);
      await admin.query(`COMMENT ON DATABASE ${quote(template)} IS ${literal(planText)}`);
      built = true;
    } else {
      log(`reusing ${template}`);
    }
    await admin.query(`DROP DATABASE IF EXISTS ${quote(RUN_DATABASE)} WITH (FORCE)`);
    const version = Number((await admin.query<{ v: string }>('SHOW server_version_num')).rows[0].v);
    // FILE_COPY (PostgreSQL 15+) copies the files instead of WAL-logging every block: seconds, not minutes.
    const strategy = version >= 150000 ? ' STRATEGY FILE_COPY' : '';
    await admin.query(`CREATE DATABASE ${quote(RUN_DATABASE)} TEMPLATE ${quote(template)}${strategy}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(serverUrl, RUN_DATABASE),
    template,
    built,
    seconds: (Date.now() - started) / 1000,
  };
}

/** The URL of another database on the same server. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/**
 * A hash of what the seeded database depends on: the compiled migrations, the seed's own code,
 * the app's card text rules and occurrence rules, the plan.
 */
function fingerprint(root: string, plan: SeedPlan): string {
  const hash = createHash('sha256').update(JSON.stringify(plan));
  const migrations = join(root, 'dist/db/migrations');
  const files = [
    ...readdirSync(migrations)
      .filter((name) => name.endsWith('.js'))
      .sort()
      .map((name) => join(migrations, name)),
    ...['seed.js', 'seed-plan.js', 'seed-texts.js'].map((name) => join(root, 'dist/bench', name)),
    join(root, 'dist/src/posts/domain/post-text.js'),
    // The events' schedule columns and their materialized occurrences come from these.
    join(root, 'dist/src/events/domain/recurrence/occurrence-series.js'),
    join(root, 'dist/src/events/domain/occurrences.js'),
  ];
  for (const file of files) hash.update(file.slice(root.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}

async function seed(url: string, plan: SeedPlan, log: (message: string) => void): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const step = async (label: string, sql: string, values: unknown[] = []) => {
    const started = Date.now();
    const result = await client.query(sql, values);
    log(`seed: ${label} (${result.rowCount ?? 0} rows, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };
  try {
    await client.query(`SET synchronous_commit = off; SET maintenance_work_mem = '256MB'`);
    const base = (await client.query<{ base: Date }>(`SELECT date_trunc('second', now()) AS base`)).rows[0]
      .base;
    const texts = postTexts();
    await client.query(
      `CREATE TEMP TABLE seed_texts (variant int PRIMARY KEY, title text, body text, slug text,
         excerpt text, display_title text)`,
    );
    await client.query(
      `INSERT INTO seed_texts SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
      [
        texts.map((t) => t.variant),
        texts.map((t) => t.title),
        texts.map((t) => t.body),
        texts.map((t) => t.slug),
        texts.map((t) => t.excerpt),
        texts.map((t) => t.displayTitle),
      ],
    );
    // Each variant's search vector once, by the function the posts' trigger calls
    // (db/migrations/1796620000003-Search.ts): a million posts then take theirs from here, the
    // trigger off while they are inserted (a deleted one's null, as the trigger sets it), rather
    // than each parsing its text again.
    await client.query('ALTER TABLE seed_texts ADD search_vector tsvector');
    await client.query('UPDATE seed_texts SET search_vector = plat_post_search_vector(title, body)');
    const U = plan.users;
    const lastSpace = FIRST_OTHER_SPACE + plan.spaces - 1;

    await step(
      'users',
      `INSERT INTO users (id, did, handle, display_name, bio, links, is_public, email, created_at, updated_at)
       SELECT md5('user-' || n)::uuid, ${sqlDid(`'user-did-' || n`)}, 'user' || n,
              CASE WHEN n % 7 = 0 THEN NULL ELSE 'User ' || n END,
              CASE WHEN n % 3 = 0 THEN 'Bio of user ' || n ELSE NULL END,
              CASE WHEN n % 5 = 0
                   THEN jsonb_build_array(jsonb_build_object('url', 'https://example.com/u/' || n, 'label', 'Home', 'description', NULL))
                   ELSE '[]'::jsonb END,
              n % 2 = 0, CASE WHEN n % 4 = 0 THEN 'user' || n || '@example.com' END,
              $1::timestamptz - ($2 - n) * interval '1 minute', $1::timestamptz - ($2 - n) * interval '1 minute'
       FROM generate_series(1, $2) AS n`,
      [base, U],
    );

    await step(
      'spaces',
      `INSERT INTO spaces (id, did, domain, display_name, description, links, join_mode, is_public, site_mode,
         subscribe_enabled, category, discovery_opt_in, member_count, last_activity_at, deleted_at, created_at, updated_at)
       SELECT md5('space-' || n)::uuid, ${sqlDid(`'space-did-' || n`)},
              CASE WHEN n = ${BIG_SPACE} THEN '${BIG_SPACE_DOMAIN}' WHEN n = ${SMALL_SPACE} THEN '${SMALL_SPACE_DOMAIN}'
                   WHEN n % 2 = 0 THEN 'space-' || md5('space-' || n) ELSE 'seed-' || n END,
              CASE WHEN n = ${BIG_SPACE} THEN 'Bench big space' WHEN n = ${SMALL_SPACE} THEN 'Bench small space'
                   ELSE 'Space ' || n END,
              CASE WHEN n % 5 = 4 THEN NULL ELSE 'Space number ' || n || ', seeded for the benchmark.' END,
              CASE WHEN n % 3 = 0
                   THEN jsonb_build_array(jsonb_build_object('url', 'https://example.com/s/' || n, 'label', NULL, 'description', NULL))
                   ELSE '[]'::jsonb END,
              (ARRAY['open', 'open', 'closed', 'application'])[n % 4 + 1],
              n < ${FIRST_OTHER_SPACE} OR n % 10 <> 0,
              CASE WHEN n % 3 = 1 THEN 'posts' ELSE 'join' END,
              n % 5 = 0,
              CASE WHEN n % 3 = 0 THEN (ARRAY['music', 'art', 'science', 'books'])[n % 4 + 1] END,
              n % 2 = 0, 0, NULL,
              CASE WHEN n >= ${FIRST_OTHER_SPACE} AND n % 50 = 1 THEN $1::timestamptz - interval '1 day' END,
              $1::timestamptz - interval '400 days' + n * interval '1 minute',
              $1::timestamptz - interval '400 days' + n * interval '1 minute'
       FROM generate_series(0, $2) AS n`,
      [base, lastSpace],
    );

    // The owner and (n % 6) members of space n (the big space has 50), all seeded users.
    await step(
      'memberships',
      `INSERT INTO space_memberships (space_id, member_did, role, status, joined_at, created_at, updated_at)
       SELECT md5('space-' || n)::uuid, ${sqlDid(`'user-did-' || ((n * 7 + k * 13) % $2 + 1)`)},
              CASE WHEN k = 0 THEN 'owner' ELSE 'member' END, 'active', joined, joined, joined
       FROM generate_series(0, $3) AS n,
            LATERAL generate_series(0, CASE WHEN n = ${BIG_SPACE} THEN 50 ELSE n % 6 END) AS k,
            LATERAL (SELECT $1::timestamptz - interval '400 days' + n * interval '1 minute' + k * interval '1 hour') AS t(joined)`,
      [base, U, lastSpace],
    );

    await step(
      'topics',
      `INSERT INTO space_topics (id, space_id, name, name_key, description, access_kind, access_group_ids, created_at, updated_at)
       SELECT md5('topic-' || n || '-' || (k - 1))::uuid, md5('space-' || n)::uuid, t.name, lower(t.name),
              NULL, t.access, '[]'::jsonb, created, created
       FROM generate_series(0, $2) AS n,
            unnest($3::text[], $4::text[]) WITH ORDINALITY AS t(name, access, k),
            LATERAL (SELECT $1::timestamptz - interval '400 days' + n * interval '1 minute') AS c(created)`,
      [base, lastSpace, TOPICS.map((t) => t.name), TOPICS.map((t) => t.accessKind)],
    );

    // A single post's insert leaves `search_vector` to the posts' trigger; the bulk ones bring it.
    const postColumns = `id, space_id, topic_id, author_did, title, body, slug, attachment_ids, upvote_count,
      comment_count, is_pinned, published_at, updated_at, deleted_at, excerpt, display_title, card_text_at`;
    const bulkPostColumns = `${postColumns}, search_vector`;
    // Post n of a bench space: topic n % 5, 30 s older than post n - 1, text variant (7n) % K;
    // authors from the upper half of the users, never members of a bench space (those are users
    // (7n + 13k) % U + 1 of the lower half), so a comment or upvote tells nobody (bench/twin/notify.ts).
    const benchPosts = (space: number, count: number) =>
      client.query(
        `INSERT INTO posts (${bulkPostColumns})
         SELECT md5('post-${space}-' || n)::uuid, md5('space-${space}')::uuid,
                md5('topic-${space}-' || (n % ${TOPICS.length}))::uuid,
                ${sqlDid(`'user-did-' || ($2 / 2 + (n * 31) % ($2 / 2) + 1)`)},
                t.title, t.body, t.slug, '[]'::jsonb, 0, 0, false, at, at,
                CASE WHEN n > 0 AND n % 100 >= ${100 - DELETED_PER_100} THEN at END,
                t.excerpt, t.display_title, at,
                CASE WHEN n > 0 AND n % 100 >= ${100 - DELETED_PER_100} THEN NULL ELSE t.search_vector END
         FROM generate_series(0, $3 - 1) AS n
         JOIN seed_texts t ON t.variant = (n * 7) % ${TEXT_VARIANTS},
         LATERAL (SELECT $1::timestamptz - n * interval '30 seconds') AS p(at)`,
        [base, U, count],
      );
    // The search index (db/migrations/1796620000003-Search.ts) takes a million posts through its
    // pending list, merged in bulk, instead of one insert each; VACUUM below flushes it, and the
    // app's setting comes back before the seed ends.
    await client.query('ALTER INDEX idx_posts_search SET (fastupdate = on)');
    await client.query('ALTER TABLE posts DISABLE TRIGGER trg_posts_search_vector');
    let started = Date.now();
    await benchPosts(BIG_SPACE, plan.bigSpacePosts);
    await benchPosts(SMALL_SPACE, plan.smallSpacePosts);
    log(`seed: bench spaces' posts (${((Date.now() - started) / 1000).toFixed(1)} s)`);

    // The rest over the other spaces, round robin: post n goes to space 2 + n % spaces, topic
    // (n / spaces) % 5; published within the last ~2 years.
    const rest = plan.posts - plan.bigSpacePosts - plan.smallSpacePosts;
    started = Date.now();
    const CHUNK = 250_000;
    for (let from = 0; from < rest; from += CHUNK) {
      await client.query(
        `INSERT INTO posts (${bulkPostColumns})
         SELECT md5('post-' || s || '-' || n)::uuid, md5('space-' || s)::uuid,
                md5('topic-' || s || '-' || ((n / $3) % ${TOPICS.length}))::uuid,
                ${sqlDid(`'user-did-' || ($2 / 2 + (n * 31) % ($2 / 2) + 1)`)},
                t.title, t.body, t.slug, '[]'::jsonb, 0, 0, false, at, at,
                CASE WHEN n % 100 >= ${100 - DELETED_PER_100} THEN at END,
                t.excerpt, t.display_title, at,
                CASE WHEN n % 100 >= ${100 - DELETED_PER_100} THEN NULL ELSE t.search_vector END
         FROM generate_series($4::int, $5::int) AS n
         JOIN seed_texts t ON t.variant = (n * 7) % ${TEXT_VARIANTS},
         LATERAL (SELECT ${FIRST_OTHER_SPACE} + n % $3) AS sp(s),
         LATERAL (SELECT $1::timestamptz - interval '1 hour' - n * interval '61 seconds') AS p(at)`,
        [base, U, plan.spaces, from, Math.min(rest, from + CHUNK) - 1],
      );
      log(
        `seed: other posts ${Math.min(rest, from + CHUNK).toLocaleString('en')} / ${rest.toLocaleString('en')}`,
      );
    }
    log(`seed: other posts (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    await client.query('ALTER TABLE posts ENABLE TRIGGER trg_posts_search_vector');
    await client.query('ALTER INDEX idx_posts_search SET (fastupdate = off)');

    // The thread: root r at base + r s, reply j of root r r minutes + j s later; authors seeded users.
    await step(
      'thread comments',
      `INSERT INTO comments (id, post_id, space_id, parent_comment_id, author_did, body, attachment_ids,
         upvote_count, reply_count, published_at, activity_at, updated_at, deleted_at)
       SELECT md5('comment-' || r || '-' || j)::uuid, md5('post-${BIG_SPACE}-${THREAD_POST}')::uuid,
              md5('space-${BIG_SPACE}')::uuid,
              CASE WHEN j = 0 THEN NULL ELSE md5('comment-' || r || '-0')::uuid END,
              ${sqlDid(`'user-did-' || ((r * 17 + j * 3) % $2 + 1)`)},
              'Comment ' || r || '.' || j || ': ' || repeat('well said ', 1 + (r + j) % 12),
              '[]'::jsonb, 0, 0, at, at, at, NULL
       FROM generate_series(0, $3 - 1) AS r,
            LATERAL generate_series(0, r % 4) AS j,
            LATERAL (SELECT $1::timestamptz + r * interval '1 second' + j * interval '1 minute') AS c(at)`,
      [base, U, plan.threadRoots],
    );
    await step(
      'thread counters',
      `WITH replies AS (
         SELECT parent_comment_id AS id, count(*) AS n, max(published_at) AS latest
         FROM comments WHERE parent_comment_id IS NOT NULL AND deleted_at IS NULL GROUP BY parent_comment_id)
       UPDATE comments c SET reply_count = r.n, activity_at = GREATEST(c.published_at, r.latest)
       FROM replies r WHERE c.id = r.id`,
    );
    await step(
      'comment counts',
      `UPDATE posts p SET comment_count = c.n
       FROM (SELECT post_id, count(*) AS n FROM comments WHERE deleted_at IS NULL GROUP BY post_id) c
       WHERE p.id = c.post_id`,
    );

    // Upvotes on the big space's 400 newest posts: post n has n % 4 voters.
    await step(
      'upvotes',
      `INSERT INTO post_upvotes (post_id, voter_did, created_at)
       SELECT md5('post-${BIG_SPACE}-' || n)::uuid, ${sqlDid(`'user-did-' || ((n * 17 + j * 101) % $2 + 1)`)}, $1::timestamptz
       FROM generate_series(0, 399) AS n, LATERAL generate_series(1, n % 4) AS j`,
      [base, U],
    );
    await step(
      'upvote counts',
      `UPDATE posts p SET upvote_count = u.n
       FROM (SELECT post_id, count(*) AS n FROM post_upvotes GROUP BY post_id) u WHERE p.id = u.post_id`,
    );

    // Same statement as the PostTopicCounts migration's backfill.
    // The link-card scenarios' two posts, older than the big space's others, and the resolved
    // previews of the ten URLs of one (no image; never expiring within a run).
    for (const [id, withLinks] of [
      [LINK_CARD_POSTS.resolved, true],
      [LINK_CARD_POSTS.none, false],
    ] as const) {
      const body = linkCardBody(withLinks);
      await step(
        `link-card post (${withLinks ? 'ten links' : 'none'})`,
        `INSERT INTO posts (${postColumns})
         VALUES ($1, md5('space-${BIG_SPACE}')::uuid, md5('topic-${BIG_SPACE}-0')::uuid,
                 ${sqlDid(`'user-did-' || ($2::int / 2 + 1)`)}, $3, $4, $5, '[]'::jsonb, 0, 0, false,
                 $6::timestamptz - interval '400 days', $6::timestamptz - interval '400 days', NULL, $7, $8,
                 $6::timestamptz - interval '400 days')`,
        [
          id,
          U,
          LINK_CARD_TITLE,
          body,
          slugOf(LINK_CARD_TITLE, body),
          base,
          excerptOf(body),
          displayTitleOf(LINK_CARD_TITLE, body),
        ],
      );
    }
    await step(
      'link previews',
      `INSERT INTO link_previews (url, canonical_url, title, description, site_name, image_media_id,
         favicon_media_id, outcome, reason, fetched_at, expires_at, attempts)
       SELECT u, u, 'Reading ' || k, 'What page ' || k || ' of the reading list is about', 'Example', NULL,
              NULL, 'ok', NULL, $1::timestamptz, $1::timestamptz + interval '100 years', 1
       FROM unnest($2::text[]) WITH ORDINALITY AS l(u, k)`,
      [base, LINK_CARD_URLS],
    );

    await step(
      'post_topic_counts',
      `INSERT INTO "post_topic_counts" ("topic_id", "space_id", "short_posts", "long_posts")
       SELECT "topic_id", "space_id",
              count(*) FILTER (WHERE "title" IS NULL), count(*) FILTER (WHERE "title" IS NOT NULL)
       FROM "posts" WHERE "deleted_at" IS NULL GROUP BY "topic_id", "space_id"`,
    );
    await step(
      'member counts',
      `UPDATE spaces s SET member_count = m.n
       FROM (SELECT space_id, count(*) AS n FROM space_memberships WHERE status = 'active' GROUP BY space_id) m
       WHERE s.id = m.space_id`,
    );
    await step(
      'last activity',
      `UPDATE spaces s SET last_activity_at = COALESCE(p.latest, s.created_at)
       FROM (SELECT sp.id, (SELECT max(published_at) FROM posts WHERE space_id = sp.id AND deleted_at IS NULL) AS latest
             FROM spaces sp) p
       WHERE s.id = p.id`,
    );
    // Public users pin the public live spaces they own (position 0).
    await step(
      'pins',
      `INSERT INTO user_space_pins (user_id, space_id, position, pin_message, pinned_at)
       SELECT u.id, m.space_id, row_number() OVER (PARTITION BY u.id ORDER BY m.space_id) - 1,
              CASE WHEN u.handle LIKE '%3' THEN 'My space' END, m.joined_at
       FROM space_memberships m
       JOIN users u ON u.did = m.member_did AND u.is_public
       JOIN spaces s ON s.id = m.space_id AND s.is_public AND s.deleted_at IS NULL
       WHERE m.role = 'owner'`,
    );
    // The store, in the small space: STORE_PRODUCTS products in sort order, some
    // unpublished, deleted or sold out; each with a one-time, a pay-what-you-want (archived on every
    // fifth) and a recurring price; one published release listing the first ten.
    await step(
      'store products',
      `INSERT INTO store_products (id, space_id, slug, name, description, sort_order, published, sold_out,
         purchasable, created_at, updated_at, deleted_at)
       SELECT md5('product-' || n)::uuid, md5('space-${SMALL_SPACE}')::uuid, 'bench-product-' || n,
              'Bench product ' || n, CASE WHEN n % 3 = 0 THEN NULL ELSE 'Product ' || n || ', seeded for the benchmark.' END,
              n, n % 25 <> 24, n % 7 = 3, n % 11 <> 5, at, at, CASE WHEN n % 40 = 39 THEN at END
       FROM generate_series(0, $2 - 1) AS n,
            LATERAL (SELECT $1::timestamptz - interval '30 days' + n * interval '1 minute') AS c(at)`,
      [base, STORE_PRODUCTS],
    );
    await step(
      'store prices',
      `INSERT INTO store_product_prices (id, product_id, position, type, currency, amount, suggested_amount, interval, archived)
       SELECT md5('price-' || n || '-' || v.position)::uuid, md5('product-' || n)::uuid, v.position, v.type,
              'EUR', v.amount + n, v.suggested, v.interval, v.position = 1 AND n % 5 = 0
       FROM generate_series(0, $1 - 1) AS n
       CROSS JOIN (VALUES (0, 'one-time', 1500, NULL::bigint, NULL),
                          (1, 'pay-what-you-want', 500, 2000::bigint, NULL),
                          (2, 'recurring', 300, NULL::bigint, 'month')) AS v(position, type, amount, suggested, interval)`,
      [STORE_PRODUCTS],
    );
    await step(
      'store release',
      `INSERT INTO store_releases (id, space_id, slug, title, description, credits, published, published_at, created_at, updated_at)
       VALUES (md5('release-0')::uuid, md5('space-${SMALL_SPACE}')::uuid, '${STORE_RELEASE_SLUG}', 'Bench release',
               'The release of the benchmark.', '[]'::jsonb, true, $1::timestamptz - interval '1 day',
               $1::timestamptz - interval '2 days', $1::timestamptz - interval '1 day')`,
      [base],
    );
    await step(
      'store release products',
      `INSERT INTO store_release_products (release_id, product_id, position)
       SELECT md5('release-0')::uuid, md5('product-' || n)::uuid, n FROM generate_series(0, 9) AS n`,
    );

    // Events: rows as the app's admin write stores them (schedule columns from the app's
    // own OccurrenceSeries), and their occurrences materialized as OccurrencesService.refresh's
    // rebuild writes them (public events, the horizon [base - 30 days, base + 460 days)). Each app process
    // then only moves the horizon at boot, from the seed's base to its own clock.
    const events = benchEvents(plan, base);
    await step(
      'events',
      `INSERT INTO events (id, space_id, title, description, location, type, mode, url, is_all_day, starts_at,
         ends_at, time_zone, start_date, end_date, rrule, requires_ticket, ticket_product_ids, visibility,
         window_span_ms, first_start, last_end, created_at, updated_at)
       SELECT e.id, e.space_id, e.title, e.description, e.location, e.type, e.mode, NULL, false, e.starts_at,
              e.ends_at, e.time_zone, NULL, NULL, e.rrule, false, '[]'::jsonb, e.visibility, e.span, e.first_start,
              e.last_end, $1::timestamptz, $1::timestamptz
       FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                   $9::timestamptz[], $10::timestamptz[], $11::text[], $12::text[], $13::text[], $14::bigint[],
                   $15::timestamptz[], $16::timestamptz[])
         AS e(id, space_id, title, description, location, type, mode, starts_at, ends_at, time_zone, rrule,
              visibility, span, first_start, last_end)`,
      [
        base,
        ...(
          [
            'id',
            'spaceId',
            'title',
            'description',
            'location',
            'type',
            'mode',
            'startsAt',
            'endsAt',
            'timeZone',
            'rrule',
            'visibility',
            'windowSpanMs',
            'firstStart',
            'lastEnd',
          ] as const
        ).map((column) => events.map((event) => event[column])),
      ],
    );

    const horizon = {
      from: new Date(base.getTime() - HORIZON_BEHIND_DAYS * DAY_MS),
      until: new Date(base.getTime() + HORIZON_AHEAD_DAYS * DAY_MS),
    };
    // Expanded by the app's OccurrenceSeries (a third of the directory's events are open-ended
    // weekly series: about 60 occurrences each over the horizon), inserted in batches of 50,000.
    started = Date.now();
    const OCCURRENCE_BATCH = 50_000;
    let batch: { event: BenchEvent; occurrence: { recurrenceId: string; start: Date; end: Date | null } }[] =
      [];
    let inserted = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await client.query(
        `INSERT INTO event_occurrences (event_id, recurrence_id, space_id, starts_at, ends_at)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::timestamptz[], $5::timestamptz[])`,
        [
          batch.map((o) => o.event.id),
          batch.map((o) => o.occurrence.recurrenceId),
          batch.map((o) => o.event.spaceId),
          batch.map((o) => o.occurrence.start),
          batch.map((o) => o.occurrence.end),
        ],
      );
      inserted += batch.length;
      batch = [];
    };
    for (const event of events) {
      if (event.visibility !== 'public') continue;
      const series = new OccurrenceSeries({
        isAllDay: false,
        startsAt: event.startsAt,
        endsAt: event.endsAt,
        timeZone: event.timeZone,
        startDate: null,
        endDate: null,
        rrule: event.rrule,
      });
      for (const occurrence of series.between(horizon.from, horizon.until, 5000)) {
        batch.push({ event, occurrence });
        if (batch.length >= OCCURRENCE_BATCH) await flush();
      }
    }
    await flush();
    log(`seed: event occurrences (${inserted} rows, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    await step(
      'occurrence horizon',
      'INSERT INTO event_occurrence_horizon (id, materialized_from, materialized_until) VALUES (1, $1, $2)',
      [horizon.from, horizon.until],
    );

    started = Date.now();
    await client.query('VACUUM ANALYZE');
    log(`seed: vacuum analyze (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } finally {
    await client.end();
  }
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

interface BenchEvent {
  id: string;
  spaceId: string;
  title: string;
  description: string | null;
  location: string | null;
  type: 'attend' | 'update';
  mode: 'call' | 'place' | 'chat' | null;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  rrule: string | null;
  visibility: 'public' | 'members' | 'draft';
  windowSpanMs: number;
  firstStart: Date;
  lastEnd: Date | null;
}

/**
 * EVENTS_PER_SPACE timed events in the small space (a weekly and a daily series, the rest one-off
 * over the next 200 days; every tenth for members, every fifteenth a draft) and OTHER_EVENTS
 * public events over the directory's spaces (two per space at 10,000 spaces), a third of them
 * weekly and open-ended, the rest one-off, starting over the next 120 days, for the cross-space
 * feed.
 */
function benchEvents(plan: SeedPlan, base: Date): BenchEvent[] {
  const events: BenchEvent[] = [];
  const HOUR = 3_600_000;
  // `variant` picks the length, zone, location and mode; `n` the rest (the directory's events pass
  // ⌊n / 3⌋, so their weekly third, n % 3 == 0, still spreads over every length and zone).
  const make = (
    label: string,
    spaceN: number,
    n: number,
    rrule: string | null,
    offsetHours: number,
    variant = n,
    visibility?: BenchEvent['visibility'],
  ) => {
    const startsAt = new Date(base.getTime() + offsetHours * HOUR);
    const endsAt = new Date(startsAt.getTime() + (1 + (variant % 3)) * HOUR);
    const timeZone = ['Europe/Berlin', 'America/New_York', 'UTC'][variant % 3];
    const series = new OccurrenceSeries({
      isAllDay: false,
      startsAt,
      endsAt,
      timeZone,
      startDate: null,
      endDate: null,
      rrule,
    });
    const type = variant % 6 === 5 ? 'update' : 'attend';
    events.push({
      id: md5Uuid(label),
      spaceId: md5Uuid(`space-${spaceN}`),
      title: `Bench event ${n}${rrule ? ' (every week)' : ''}`,
      description: n % 2 === 0 ? `Event ${n}, seeded for the benchmark.` : null,
      location: variant % 3 === 0 ? `Room ${n % 17}` : null,
      type,
      mode: type === 'update' ? null : (['call', 'place', 'chat'] as const)[variant % 3],
      startsAt,
      endsAt,
      timeZone,
      rrule,
      visibility: visibility ?? (n % 15 === 14 ? 'draft' : n % 10 === 9 ? 'members' : 'public'),
      windowSpanMs: series.windowSpanMs,
      firstStart: series.firstStart(),
      lastEnd: series.lastEnd(),
    });
  };
  make('event-small-weekly', SMALL_SPACE, 0, 'FREQ=WEEKLY;BYDAY=TU,TH', 2);
  make('event-small-daily', SMALL_SPACE, 1, 'FREQ=DAILY;COUNT=60', 5);
  for (let n = 2; n < EVENTS_PER_SPACE; n++)
    make(`event-small-${n}`, SMALL_SPACE, n, null, (n * 37) % (200 * 24));
  for (let n = 0; n < OTHER_EVENTS; n++)
    make(
      `event-${n}`,
      FIRST_OTHER_SPACE + ((n * 7) % plan.spaces),
      n,
      n % 3 === 0 ? 'FREQ=WEEKLY' : null,
      1 + ((n * 7919) % (120 * 24)),
      Math.floor(n / 3),
      'public',
    );
  return events;
}
