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
 * null, $3 whether the prefix is an alternative.
 */
const QUERY = 'plat_search_query($1::text, $2::text, $3::boolean)';

/**
 * Relevance blended with recency, a sort key that does not move with the clock
 * (docs/decisions/0181-search-query-and-ranking.md): the log of `ts_rank_cd` plus the age in units
 * of 30 days, so a hit twice as relevant outranks one up to ~21 days newer.
 */
const score = (alias: string) =>
  `ln(ts_rank_cd(${alias}.vector, ${QUERY}) + 0.001) + extract(epoch FROM ${alias}.recency) / 2592000`;

/**
 * Each kind's hits within the reader's scope, an empty list skipping its branch before any scan
 * ($4 post topics, $5 comment topics, $6 page spaces, $7 event spaces, $8 now): the views the
 * owners publish (`searchable_*`, `live_posts`), each with its GIN index.
 */
const HITS =
  // Posts topic by topic: the (topic, vector) GIN index reads each topic's matches only.
  `SELECT 'post' AS type, p.id, ${score('p')} AS score FROM unnest($4::uuid[]) AS pt(id) ` +
  `JOIN searchable_posts p ON p.topic_id = pt.id WHERE cardinality($4::uuid[]) > 0 AND p.vector @@ ${QUERY} ` +
  `UNION ALL SELECT 'comment', c.id, ${score('c')} FROM searchable_comments c ` +
  'JOIN live_posts lp ON lp.id = c.post_id ' +
  `WHERE cardinality($5::uuid[]) > 0 AND lp.topic_id = ANY($5::uuid[]) AND c.vector @@ ${QUERY} ` +
  `UNION ALL SELECT 'page', g.id, ${score('g')} FROM searchable_pages g ` +
  `WHERE cardinality($6::uuid[]) > 0 AND g.space_id = ANY($6::uuid[]) AND g.vector @@ ${QUERY} ` +
  `UNION ALL SELECT 'event', e.id, ${score('e')} FROM searchable_events e ` +
  `WHERE cardinality($7::uuid[]) > 0 AND e.space_id = ANY($7::uuid[]) AND (e.ends_at IS NULL OR e.ends_at > $8) ` +
  `AND e.vector @@ ${QUERY}`;

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

/** A page of hits by (score, id), `seek` past the cursor ($9 rows, $10 score, $11 id). */
const page = (seek: string, order: 'ASC' | 'DESC') =>
  `SELECT h.type, h.id, h.score, ${HIGHLIGHT} AS marked ` +
  `FROM (SELECT * FROM (${HITS}) hits ${seek}ORDER BY score ${order}, id ${order} LIMIT $9) h ` +
  `CROSS JOIN LATERAL (${DOCUMENT}) d ORDER BY h.score ${order}, h.id ${order}`;

/**
 * The search module's fixed SQL (docs/decisions/0131-a-repository-per-module.md), written to
 * docs/queries/search.sql by `npm run build && npm run queries:write`.
 */
export const SEARCH_STATEMENTS = defineStatements('SearchRepository', {
  /** The hits of a query in the reader's scope, best first, with their highlights. */
  hits: {
    first: page('', 'DESC'),
    after: page('WHERE (score, id) < ($10::float8, $11::uuid) ', 'DESC'),
    before: page('WHERE (score, id) > ($10::float8, $11::uuid) ', 'ASC'),
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
