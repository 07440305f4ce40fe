import { Injectable } from '@nestjs/common';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { WorkSlots } from '../../common/concurrency/work-slots';
import { invalidRequest } from '../../common/errors/api-error';
import { AppConfig } from '../../config/app-config';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { grantCoversSpace } from '../../protocol';
import { PostAccessService, PostReadabilityService } from '../../posts';
import { SpaceDirectoryService, SpaceView } from '../../spaces';
import { SearchBackend, SearchHit, SearchScope } from '../domain/search-backend';
import {
  ParsedQuery,
  parseSearchQuery,
  SEARCH_TYPES,
  SearchType,
  UnsearchableQuery,
} from '../domain/search-query';
import { SearchListing } from '../dto/search-records.dto';
import { SearchQuery } from '../dto/search-requests.dto';
import { Readers, SearchPresenter } from './search.presenter';

/** Best first: the backend's score (relevance blended with recency), then id. */
const ORDER: KeysetColumn[] = [
  { expression: 'score', direction: 'DESC' },
  { expression: 'id', direction: 'DESC' },
];

/**
 * Search (docs/decisions/0182-search-access-is-the-listings.md): what a reader finds is exactly
 * what the listings show them. Posts are those of the topics the posts module says they read in full
 * (its one rule, record 0134); comments those of such posts, for a signed-in caller, as the thread
 * listing (`read:posts` or an identity proof); pages and public events those of spaces with a
 * public profile, as their anonymous routes. The hits come from the one `SearchBackend`; the items
 * from their owners' batch services.
 */
@Injectable()
export class SearchService {
  /** At most SEARCH_CONCURRENCY searches at once, SEARCH_QUEUE waiting (docs/decisions/0184-search-slots.md). */
  private readonly slots: WorkSlots;

  constructor(
    private readonly backend: SearchBackend,
    private readonly presenter: SearchPresenter,
    private readonly posts: PostAccessService,
    private readonly readability: PostReadabilityService,
    private readonly directory: SpaceDirectoryService,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    config: AppConfig,
  ) {
    this.slots = new WorkSlots(
      config.SEARCH_CONCURRENCY,
      config.SEARCH_QUEUE,
      'Too many searches are running; retry shortly',
    );
  }

  /**
   * GET /v1/spaces/{space}/search: as the space's posts listing reads the caller (the member view,
   * the visitor view, or the public projection for anyone else, a grant not covering the space
   * included); a hidden space is the one 404.
   */
  async inSpace(
    principal: RequestPrincipal | null,
    spaceRef: string,
    query: SearchQuery,
  ): Promise<SearchListing> {
    const parsed = parse(query.q);
    const types = typesOf(query.types);
    const view = await this.posts.readView(principal, spaceRef);
    // The thread listing is gated on `read:posts` held (on any space): a grant without it reads no comments.
    const readsComments =
      principal !== null &&
      (!principal.credential || principal.credential.spaceScopes.includes('read:posts'));
    const wantsTopics =
      types.has('posts') || (readsComments && types.has('comments')) || decidesByPosts(parsed);
    const topics = wantsTopics ? (await this.posts.readableTopics(view)).map((topic) => topic.id) : [];
    const publicSpaces = view.space.isPublic ? [view.space] : [];
    const scope = this.scopeOf(types, topics, readsComments ? topics : [], [view.space.id], publicSpaces);
    const reader = view.kind === 'anonymous' ? null : view.did;
    // The thread listing's `viewer` is the member view's person (comments' record 0059).
    const readers: Readers = {
      posts: reader,
      comments: view.kind === 'member' ? view.did : null,
      publicSpaces,
    };
    return this.page(parsed, scope, query, readers);
  }

  /**
   * GET /v1/search: as the feed reads the caller: the live spaces where they are an active member
   * that their grant covers with `read:posts`, the topics they read there in full (one statement).
   */
  async acrossSpaces(principal: RequestPrincipal, query: SearchQuery): Promise<SearchListing> {
    const parsed = parse(query.q);
    const types = typesOf(query.types);
    const spaces = (await this.directory.memberSpacesOf(principal.did))
      .map(({ space }) => space)
      .filter(
        (space) => !principal.credential || grantCoversSpace(principal.credential, space.did, 'read:posts'),
      );
    const wantsTopics = types.has('posts') || types.has('comments') || decidesByPosts(parsed);
    const topics = wantsTopics
      ? await this.readability.readableTopicIds(
          principal.did,
          spaces.map((space) => space.id),
        )
      : [];
    const publicSpaces = spaces.filter((space) => space.isPublic);
    const scope = this.scopeOf(
      types,
      topics,
      topics,
      spaces.map((space) => space.id),
      publicSpaces,
    );
    return this.page(parsed, scope, query, { posts: principal.did, comments: principal.did, publicSpaces });
  }

  private scopeOf(
    types: Set<SearchType>,
    postTopicIds: string[],
    commentTopicIds: string[],
    topicSpaceIds: string[],
    publicSpaces: SpaceView[],
  ): SearchScope {
    const spaceIds = publicSpaces.map((space) => space.id);
    return {
      postTopicIds: types.has('posts') ? postTopicIds : [],
      wordTopicIds: postTopicIds,
      postSpaceIds: types.has('posts') ? topicSpaceIds : [],
      commentTopicIds: types.has('comments') ? commentTopicIds : [],
      pageSpaceIds: types.has('pages') ? spaceIds : [],
      eventSpaceIds: types.has('events') ? spaceIds : [],
      now: this.clock.now(),
    };
  }

  /** A keyset page of hits, presented; no statement when the scope holds nothing to search. */
  private async page(
    parsed: ParsedQuery,
    scope: SearchScope,
    query: SearchQuery,
    readers: Readers,
  ): Promise<SearchListing> {
    const keyset = {
      listing: 'search',
      columns: ORDER,
      keyOf: (hit: SearchHit) => [hit.score, hit.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const empty =
      scope.postTopicIds.length +
        scope.commentTopicIds.length +
        scope.pageSpaceIds.length +
        scope.eventSpaceIds.length ===
      0;
    const hits = empty ? [] : await this.slots.run(() => this.backend.search(parsed, scope, seek));
    const page = closeKeysetPage(seek, hits, keyset);
    return {
      items: await this.presenter.results(page.rows, readers),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }
}

/** The query as the backend runs it, or the 400 of design.md §5 with its detail. */
function parse(q: string): ParsedQuery {
  try {
    return parseSearchQuery(q);
  } catch (error) {
    if (error instanceof UnsearchableQuery)
      throw invalidRequest('Invalid request', [{ path: 'q', message: error.message }]);
    throw error;
  }
}

/**
 * Whether the reader's posts decide how the query reads: a lone last word is the whole word once
 * a page of their posts holds it (docs/decisions/0185-bounded-search-work.md), whatever `types`.
 */
function decidesByPosts(parsed: ParsedQuery): boolean {
  return parsed.prefix !== null && !parsed.alternative && !parsed.headRequired;
}

/** The kinds `types` names (validated by the DTO), every kind when absent. */
function typesOf(types: string | undefined): Set<SearchType> {
  return new Set(types === undefined ? SEARCH_TYPES : (types.split(',') as SearchType[]));
}
