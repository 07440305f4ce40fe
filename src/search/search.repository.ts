import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KeysetSeek } from '../common/pagination/keyset';
import { defineStatements } from '../infrastructure/database/statements';
import { HitType, SearchBackend, SearchHit, SearchScope } from './domain/search-backend';
import { highlightIn, ParsedQuery, SEARCH_LIMITS } from './domain/search-query';

/**
 * The query as PostgreSQL runs it: websearch syntax with the last word as a prefix
 * (`plat_search_query`, db/migrations/1796620000003-Search.ts). $1 the text, $2 the prefix or
 * null, $3 whether the prefix is an alternative. Ranking and the rows' check use it.
 */
const QUERY = 'plat_search_query($1::text, $2::text, $3::boolean)';

/**
 * The query the GIN indexes read by (docs/decisions/0185-bounded-search-work.md): a prefix makes
 * GIN collect every posting of every word it starts (`meet:*`: most of a million posts) and loses
 * its skipping between terms, so the index reads by whole words wherever they decide the match and
 * the rows found are checked against QUERY. With $11 (the words before the prefix hold one a match
 * must contain) the index reads by those words and the prefix is checked on their rows only.
 * Otherwise a lone last word (not an `OR` alternative) is read as the whole word when that alone
 * already matches more than a page of the scope's posts (`EXACT_FIRST`; `form.exact`), as a prefix
 * only when it is rarer. Both forms are written out, so the planner sees each as a constant, and
 * a one-time filter on `form.exact` runs one of them.
 */
const EXACT_FIRST = SEARCH_LIMITS.exactFirst;
const INDEXED = `plat_search_query($1::text, CASE WHEN $11::boolean THEN NULL ELSE $2::text END, $3::boolean)`;
const WHOLE_WORD = "websearch_to_tsquery('plat_search', $1::text || ' ' || $2::text)";
/**
 * The whole-word probe (docs/decisions/0187-whole-word-probe-by-topic.md): one topic at a time
 * (`unnest` and `LATERAL`, the topic an equality), so no plan of it is a scan of `posts`; a
 * `LIMIT 21` over `topic_id = ANY` was planned as one, which synchronized scans start mid-table.
 * First the scope's newest posts (up to `PROBE_RECENT` a topic by the recency btree, `PROBE_SAMPLE`
 * in all) hold a page of the word (a common word, under a millisecond); only otherwise the GIN
 * index counts the word topic by topic up to a page (a rarer word: its postings in the topics).
 * The first is a subset of the second, so `exact` means what it did; `OR` runs the second only
 * when the first falls short. It counts the posts of all the reader's topics ($12), whatever kinds
 * `types` asks ($4 is empty without posts), so narrowing the kinds never changes what matches.
 */
const PROBE_RECENT = 64;
const PROBE_SAMPLE = 256;
const RECENT_HOLD_A_PAGE =
  '(SELECT count(*) FROM (SELECT n.vector FROM unnest($12::uuid[]) pt(id) CROSS JOIN LATERAL ' +
  `(SELECT x.vector FROM searchable_posts x WHERE x.topic_id = pt.id ORDER BY x.recency DESC LIMIT ${PROBE_RECENT}) n ` +
  `LIMIT ${PROBE_SAMPLE}) recent WHERE recent.vector @@ ${WHOLE_WORD}) >= ${EXACT_FIRST}`;
const TOPICS_HOLD_A_PAGE =
  '(SELECT count(*) FROM (SELECT 1 FROM unnest($12::uuid[]) pt(id) CROSS JOIN LATERAL ' +
  `(SELECT 1 FROM searchable_posts x WHERE x.topic_id = pt.id AND x.vector @@ ${WHOLE_WORD} LIMIT ${EXACT_FIRST}) y ` +
  `LIMIT ${EXACT_FIRST}) found) >= ${EXACT_FIRST}`;
const FORM =
  'SELECT $2::text IS NOT NULL AND NOT $11::boolean AND NOT $3::boolean AND ' +
  `(${RECENT_HOLD_A_PAGE} OR ${TOPICS_HOLD_A_PAGE}) AS exact`;
/**
 * Posts twice: read by the index form, or by the whole word (a constant each, so the planner
 * weighs the GIN and the recency btree by the words' frequencies); the rows checked by QUERY.
 */
const bothForms = (select: string, alias: string, where: string) =>
  `${select} WHERE ${where} AND NOT (SELECT exact FROM form) AND ${alias}.vector @@ ${INDEXED} ` +
  `AND ts_match_vq(${alias}.vector, ${QUERY}) ` +
  `UNION ALL ${select} WHERE ${where} AND (SELECT exact FROM form) AND ${alias}.vector @@ ${WHOLE_WORD}`;
/** The other kinds' smaller tables once, by whichever form `form.exact` chose. */
const eitherForm = (alias: string) =>
  `${alias}.vector @@ CASE WHEN (SELECT exact FROM form) THEN ${WHOLE_WORD} ELSE ${INDEXED} END ` +
  `AND ts_match_vq(${alias}.vector, ${QUERY})`;

/**
 * The recency tiers (docs/decisions/0185-bounded-search-work.md): the last day's hits first, then
 * the last 30 days', then the rest, each tier ranked by the score within it. `bonus` lifts a tier's
 * scores above every score of the tiers after it (a score is about 700 today, 12 more a year), so
 * one keyset `(score, id)` walks the tiers in turn; `since` is the tier's window, which holds its
 * hits and every newer tier's.
 */
const TIERS = [
  { name: 'day', since: "$8::timestamptz - interval '1 day'", bonus: 20000 },
  { name: 'month', since: "$8::timestamptz - interval '30 days'", bonus: 10000 },
  { name: 'ever', since: null, bonus: 0 },
] as const satisfies readonly { name: string; since: string | null; bonus: number }[];

/**
 * Relevance blended with recency (docs/decisions/0181-search-query-and-ranking.md): the log of
 * `ts_rank_cd` plus the age in units of 30 days, so a hit twice as relevant outranks one up to ~21
 * days newer, plus its tier's bonus (record 0185). The tier moves with $8 (now) only when a hit
 * crosses a tier's edge between two pages.
 */
const score = (alias: string) =>
  `ln(ts_rank_cd(${alias}.vector, ${QUERY}) + 0.001) + extract(epoch FROM ${alias}.recency) / 2592000 + CASE ` +
  TIERS.filter((tier) => tier.since)
    .map((tier) => `WHEN ${alias}.recency >= ${tier.since} THEN ${tier.bonus} `)
    .join('') +
  'ELSE 0 END';

/**
 * Each kind's hits within the reader's scope and since `since` (null: all), an empty list skipping
 * its branch before any scan ($4 post topics, $5 comment topics, $6 page spaces, $7 event spaces,
 * $8 now, $10 the post topics' spaces): the views the owners publish (`searchable_*`,
 * `live_posts`), each with its GIN index. Posts in one scan: the (topic, vector) GIN index reads
 * the topics' matches, ANDed with the (space, published_at) btree's posts of the window.
 */
const hitsSince = (since: string | null) => {
  const recent = (alias: string) => (since ? ` AND ${alias}.recency >= ${since}` : '');
  return (
    bothForms(
      `SELECT 'post' AS type, p.id, ${score('p')} AS score FROM searchable_posts p`,
      'p',
      `cardinality($4::uuid[]) > 0 AND p.topic_id = ANY($4::uuid[]) AND p.space_id = ANY($10::uuid[])${recent('p')}`,
    ) +
    ` UNION ALL SELECT 'comment', c.id, ${score('c')} FROM searchable_comments c ` +
    'JOIN live_posts lp ON lp.id = c.post_id ' +
    `WHERE cardinality($5::uuid[]) > 0 AND lp.topic_id = ANY($5::uuid[]) AND ${eitherForm('c')}${recent('c')} ` +
    `UNION ALL SELECT 'page', g.id, ${score('g')} FROM searchable_pages g ` +
    `WHERE cardinality($6::uuid[]) > 0 AND g.space_id = ANY($6::uuid[]) AND ${eitherForm('g')}${recent('g')} ` +
    `UNION ALL SELECT 'event', e.id, ${score('e')} FROM searchable_events e ` +
    'WHERE cardinality($7::uuid[]) > 0 AND e.space_id = ANY($7::uuid[]) AND (e.ends_at IS NULL OR e.ends_at > $8) ' +
    `AND ${eitherForm('e')}${recent('e')}`
  );
};

/** A document of one hit by its kind and id. */
const DOCUMENT =
  "SELECT document FROM searchable_posts WHERE h.type = 'post' AND id = h.id " +
  "UNION ALL SELECT document FROM searchable_comments WHERE h.type = 'comment' AND id = h.id " +
  "UNION ALL SELECT document FROM searchable_pages WHERE h.type = 'page' AND id = h.id " +
  "UNION ALL SELECT document FROM searchable_events WHERE h.type = 'event' AND id = h.id";

/**
 * One tier's window (docs/decisions/0185-bounded-search-work.md): its hits past the seek, ranked
 * within it and cut at $9 rows, each with its document (the text the highlight is taken from,
 * record 0186), read by its kind and id. One statement per tier rather than the three windows
 * in one (record 0186): planning the three cost about 3 ms a search, one about 1.3 ms, and a
 * page is most often the first tier's.
 */
const tierPage = (since: string | null, seek: string, order: 'ASC' | 'DESC') =>
  `WITH form AS MATERIALIZED (${FORM}) SELECT h.type, h.id, h.score, d.document ` +
  `FROM (SELECT * FROM (${hitsSince(since)}) hits ${seek}ORDER BY score ${order}, id ${order} LIMIT $9) h ` +
  `CROSS JOIN LATERAL (${DOCUMENT}) d ORDER BY h.score ${order}, h.id ${order}`;

/** A tier's three statements: first page, `after` and `before` a cursor ($13 score, $14 id). */
const tierStatements = (since: string | null) => ({
  first: tierPage(since, '', 'DESC'),
  after: tierPage(since, 'WHERE (score, id) < ($13::float8, $14::uuid) ', 'DESC'),
  before: tierPage(since, 'WHERE (score, id) > ($13::float8, $14::uuid) ', 'ASC'),
});

/**
 * The search module's fixed SQL (docs/decisions/0131-a-repository-per-module.md), written to
 * docs/queries/search.sql by `npm run build && npm run queries:write`.
 */
export const SEARCH_STATEMENTS = defineStatements('SearchRepository', {
  /** The hits of a query in the reader's scope within one recency tier's window, best first. */
  hits: {
    day: tierStatements(TIERS[0].since),
    month: tierStatements(TIERS[1].since),
    ever: tierStatements(TIERS[2].since),
  },
});

/** A hit as the statements answer it. */
export interface HitRow {
  type: HitType;
  id: string;
  score: number;
  document: string;
}

/**
 * The page of hits as record 0185 defines it, one tier's statement at a time (record 0186): the
 * first page and `after` a cursor are the narrowest window that holds a full read (`take` rows),
 * the wider windows read in turn only while the narrower held less; `before` a cursor is the
 * window of the cursor's tier (the tier whose bonus its score reaches). `run` sends a statement;
 * the bare twin (bench/twin/search.ts) runs the same.
 */
export async function readHitTiers(
  run: (sql: string, parameters: unknown[]) => Promise<HitRow[]>,
  parameters: unknown[],
  seek: KeysetSeek,
): Promise<HitRow[]> {
  const { hits } = SEARCH_STATEMENTS;
  if (seek.values && seek.backward) {
    const score = Number(seek.values[0]);
    const tier = TIERS.find(({ bonus }) => score >= bonus) ?? TIERS[TIERS.length - 1];
    return run(hits[tier.name].before, [...parameters, seek.values[0], seek.values[1]]);
  }
  const values = seek.values ? [...parameters, seek.values[0], seek.values[1]] : parameters;
  let rows: HitRow[] = [];
  for (const { name } of TIERS) {
    rows = await run(seek.values ? hits[name].after : hits[name].first, values);
    if (rows.length >= seek.take) break;
  }
  return rows;
}

/** The PostgreSQL full-text search backend: every statement of the search module. */
@Injectable()
export class SearchRepository implements SearchBackend {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async search(query: ParsedQuery, scope: SearchScope, seek: KeysetSeek): Promise<SearchHit[]> {
    const rows = await readHitTiers(
      (sql, parameters) => this.dataSource.query<HitRow[]>(sql, parameters),
      [
        query.text,
        query.prefix,
        query.alternative,
        scope.postTopicIds,
        scope.commentTopicIds,
        scope.pageSpaceIds,
        scope.eventSpaceIds,
        scope.now,
        seek.take,
        scope.postSpaceIds,
        query.headRequired,
        scope.wordTopicIds,
      ],
      seek,
    );
    // The passage marked in JavaScript from the document (record 0186), not ts_headline.
    return rows.map((row) => ({
      type: row.type,
      id: row.id,
      score: Number(row.score),
      highlight: highlightIn(row.document, query),
    }));
  }
}
