import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { KeysetSeek } from '../common/pagination/keyset';
import { defineStatements } from '../infrastructure/database/statements';
import { HitType, SearchBackend, SearchHit, SearchScope } from './domain/search-backend';
import { ParsedQuery } from './domain/search-query';

/**
 * The query as PostgreSQL runs it: websearch syntax with the last word as a prefix
 * (`plat_search_query`, db/migrations/1796620000003-Search.ts). $1 the text, $2 the prefix or
 * null, $3 whether the prefix is an alternative. Ranking, highlights and the rows' check use it.
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
const EXACT_FIRST = 21;
const INDEXED = `plat_search_query($1::text, CASE WHEN $11::boolean THEN NULL ELSE $2::text END, $3::boolean)`;
const WHOLE_WORD = "websearch_to_tsquery('plat_search', $1::text || ' ' || $2::text)";
const FORM =
  'SELECT $2::text IS NOT NULL AND NOT $11::boolean AND NOT $3::boolean AND (SELECT count(*) FROM ' +
  `(SELECT 1 FROM searchable_posts x WHERE x.topic_id = ANY($4::uuid[]) AND x.vector @@ ${WHOLE_WORD} ` +
  `LIMIT ${EXACT_FIRST}) found) >= ${EXACT_FIRST} AS exact`;
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
const TIERS: { name: string; since: string | null; bonus: number }[] = [
  { name: 'day', since: "$8::timestamptz - interval '1 day'", bonus: 20000 },
  { name: 'month', since: "$8::timestamptz - interval '30 days'", bonus: 10000 },
  { name: 'ever', since: null, bonus: 0 },
];

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

/**
 * The bounded candidate set (docs/decisions/0185-bounded-search-work.md): each tier's window is a
 * CTE of its page past the seek, ranked within it and cut at $9 rows. Forward, the narrowest window
 * that holds a page is the page (a wider one is read only when the narrower held less: one-time
 * filters on their counts, evaluated in turn); backward, the window of the cursor's tier, whose
 * rows before the cursor are all those of its tier and the newer ones.
 */
const windowed = (seek: string, order: 'ASC' | 'DESC') => {
  const ctes = TIERS.map(
    ({ name, since }) =>
      `${name} AS MATERIALIZED (SELECT * FROM (${hitsSince(since)}) hits ${seek}ORDER BY score ${order}, id ${order} LIMIT $9)`,
  );
  const full = (name: string) => `(SELECT count(*) FROM ${name}) >= $9`;
  const short = (name: string) => `(SELECT count(*) FROM ${name}) < $9`;
  const picks = TIERS.map(({ name, bonus }, index) => {
    const conditions =
      order === 'ASC'
        ? [
            ...(index > 0 ? [`$12::float8 < ${TIERS[index - 1].bonus}`] : []),
            ...(bonus > 0 ? [`$12::float8 >= ${bonus}`] : []),
          ]
        : [
            ...TIERS.slice(0, index).map((earlier) => short(earlier.name)),
            ...(index < TIERS.length - 1 ? [full(name)] : []),
          ];
    return `SELECT * FROM ${name}${conditions.length ? ` WHERE ${conditions.join(' AND ')}` : ''}`;
  });
  return `WITH form AS MATERIALIZED (${FORM}), ${ctes.join(', ')} ${picks.join(' UNION ALL ')}`;
};

/**
 * The highlighted passage of one hit of the page, its document read by its kind and id: matched
 * terms between chr(2) and chr(3) (`HIGHLIGHT_START`, `HIGHLIGHT_STOP`), stripped from the text first.
 */
const HIGHLIGHT =
  `ts_headline('plat_search', translate(d.document, chr(2) || chr(3), ''), ${QUERY}, ` +
  "'StartSel=' || chr(2) || ', StopSel=' || chr(3) || ', MaxFragments=1, MaxWords=24, MinWords=8, ShortWord=2, " +
  'FragmentDelimiter=" … "\')';
const DOCUMENT =
  "SELECT document FROM searchable_posts WHERE h.type = 'post' AND id = h.id " +
  "UNION ALL SELECT document FROM searchable_comments WHERE h.type = 'comment' AND id = h.id " +
  "UNION ALL SELECT document FROM searchable_pages WHERE h.type = 'page' AND id = h.id " +
  "UNION ALL SELECT document FROM searchable_events WHERE h.type = 'event' AND id = h.id";

/** A page of hits by (score, id), `seek` past the cursor ($9 rows, $12 score, $13 id). */
const page = (seek: string, order: 'ASC' | 'DESC') =>
  `SELECT h.type, h.id, h.score, ${HIGHLIGHT} AS marked ` +
  `FROM (${windowed(seek, order)}) h ` +
  `CROSS JOIN LATERAL (${DOCUMENT}) d ORDER BY h.score ${order}, h.id ${order}`;

/**
 * The search module's fixed SQL (docs/decisions/0131-a-repository-per-module.md), written to
 * docs/queries/search.sql by `npm run build && npm run queries:write`.
 */
export const SEARCH_STATEMENTS = defineStatements('SearchRepository', {
  /** The hits of a query in the reader's scope, best first, with their highlights. */
  hits: {
    first: page('', 'DESC'),
    after: page('WHERE (score, id) < ($12::float8, $13::uuid) ', 'DESC'),
    before: page('WHERE (score, id) > ($12::float8, $13::uuid) ', 'ASC'),
  },
});

interface HitRow {
  type: HitType;
  id: string;
  score: number;
  marked: string;
}

/** The PostgreSQL full-text search backend: every statement of the search module. */
@Injectable()
export class SearchRepository implements SearchBackend {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async search(query: ParsedQuery, scope: SearchScope, seek: KeysetSeek): Promise<SearchHit[]> {
    const { hits } = SEARCH_STATEMENTS;
    const parameters = [
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
    ];
    const rows = seek.values
      ? await this.dataSource.query<HitRow[]>(seek.backward ? hits.before : hits.after, [
          ...parameters,
          seek.values[0],
          seek.values[1],
        ])
      : await this.dataSource.query<HitRow[]>(hits.first, parameters);
    return rows.map((row) => ({ type: row.type, id: row.id, score: Number(row.score), marked: row.marked }));
  }
}
