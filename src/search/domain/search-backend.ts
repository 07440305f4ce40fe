import type { KeysetSeek } from '../../common/pagination/keyset';
import type { Highlight, ParsedQuery } from './search-query';

/** The kinds of hits, as the `type` of a result. */
export type HitType = 'post' | 'comment' | 'page' | 'event';

/**
 * What a search may find, already narrowed to what the reader's listings show
 * (docs/decisions/0182-search-access-is-the-listings.md): each list is database ids (uuid); an
 * empty list finds nothing of that kind (and costs no scan).
 */
export interface SearchScope {
  /** Topics whose posts the reader reads in full. */
  postTopicIds: string[];
  /** The spaces of those topics (the posts' recency index is by space). */
  postSpaceIds: string[];
  /**
   * Topics whose posts decide whether a lone last word is read as the whole word
   * (docs/decisions/0185-bounded-search-work.md): the reader's, whatever kinds are asked, so
   * `types` narrows the kinds without changing which things match.
   */
  wordTopicIds: string[];
  /** Topics on whose posts the reader reads the comments (none without a signed-in caller). */
  commentTopicIds: string[];
  /** Spaces whose enabled pages the reader sees (those with a public profile). */
  pageSpaceIds: string[];
  /** Spaces whose public events the reader sees (those with a public profile). */
  eventSpaceIds: string[];
  /** Events that ended before this instant are not found (their page is a 404). */
  now: Date;
}

/** One hit: its kind, id (uuid), sort key and highlighted passage. */
export interface SearchHit {
  type: HitType;
  id: string;
  score: number;
  highlight: Highlight;
}

/**
 * The one interface search reads through (docs/decisions/0183-a-search-backend-interface.md):
 * PostgreSQL full-text today (`SearchRepository`); an OpenSearch implementation would take its place
 * behind this class, fed by the owners' domain events, when PostgreSQL stops meeting the bounds
 * written down in bench/README.md.
 */
export abstract class SearchBackend {
  /**
   * The hits of `query` within `scope`, best first by (score, id), for the keyset seek `seek`
   * (values: [score, id]); at most `seek.take`.
   */
  abstract search(query: ParsedQuery, scope: SearchScope, seek: KeysetSeek): Promise<SearchHit[]>;
}
