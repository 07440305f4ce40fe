import { EVENTS_STATEMENTS } from '../../src/events/repositories/events.repository';
import { MEDIA_STATEMENTS } from '../../src/media/media.repository';
import { POST_COUNTS_STATEMENTS } from '../../src/posts/repositories/post-counts.repository';
import { SPACES_STATEMENTS } from '../../src/spaces/repositories/spaces.repository';
import { stateOf } from './auth';
import { answer, TwinRefusal, wireId, type TwinHandler } from './context';
import { linkRecords, spaceByDomain, wordedSummary, type SpaceRow } from './rows';

/**
 * The public space directory and the single fetch, bare: the keyset query over the directory's
 * partial index (card columns only, limit + 1 rows), the app's cursors; the single fetch reads the
 * space, then in parallel the registered counts one after the other (private posts, events)
 * and the identity state for the protocol block (cached 60 s, as the app caches it).
 */

const LISTING = 'public-spaces';

const DIRECTORY = SPACES_STATEMENTS.directoryPage.unfiltered;

/** The app's directory page without filters, forward only (SpacesRepository's declared statements). */
export function directoryPage(after: unknown[] | null, take: number): { sql: string; parameters: unknown[] } {
  return after
    ? { sql: DIRECTORY.after, parameters: [after[0], after[1], take] }
    : { sql: DIRECTORY.first, parameters: [take] };
}

interface DirectoryRow {
  space_id: string;
  space_did: string;
  space_domain: string;
  space_display_name: string | null;
  space_description: string | null;
  space_links: SpaceRow['links'];
  space_member_count: number;
  space_verified_domain: string | null;
  space_category: string | null;
  space_last_activity_at: Date;
}

/** toSpaceCard of a directory row (the seed's spaces have no avatar). */
function spaceCard(row: DirectoryRow): Record<string, unknown> {
  return {
    id: wireId('space', row.space_id),
    did: row.space_did,
    domain: row.space_domain,
    displayName: row.space_display_name,
    description: row.space_description,
    avatarUrl: null,
    links: linkRecords(row.space_links),
    memberCountSummary: wordedSummary(row.space_member_count, 'members'),
    verifiedDomain: row.space_verified_domain,
    ...(row.space_category ? { category: row.space_category } : {}),
  };
}

/** GET /v1/spaces?limit=…[&after=…]. */
export const spacesDirectory: TwinHandler = async ({ pool, url, cursors }) => {
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const cursor = url.searchParams.get('after');
  const after = cursor === null ? null : cursors.decode(LISTING, cursor);
  if (cursor !== null && (after === null || after.length !== 2)) throw new TwinRefusal(400, 'Invalid cursor');
  const { sql, parameters } = directoryPage(after, limit + 1);
  const { rows } = await pool.query<DirectoryRow>(sql, parameters);
  const page = rows.slice(0, limit);
  const encode = (row: DirectoryRow | undefined) =>
    row ? cursors.encode(LISTING, [row.space_last_activity_at.toISOString(), row.space_id]) : null;
  return answer({
    items: page.map(spaceCard),
    nextCursor: rows.length > limit ? encode(page[page.length - 1]) : null,
    previousCursor: after ? encode(page[0]) : null,
  });
};

/**
 * SpaceCountersService.summaries: the counts the modules registered, one after the other in the order of
 * the answer, each its module's declared statement (PostCountsRepository.privateInSpace,
 * EventsRepository.countOfSpace, MediaRepository.readyCountOfSpace).
 */
async function countSummaries(
  pool: Parameters<TwinHandler>[0]['pool'],
  spaceId: string,
  shownMedia: string[],
): Promise<[number, number, number]> {
  const privatePosts = await pool.query<{ n: number }>(POST_COUNTS_STATEMENTS.privateInSpace, [spaceId]);
  const events = await pool.query<{ n: number }>(EVENTS_STATEMENTS.countOfSpace, [spaceId]);
  const media = await pool.query<{ n: number }>(MEDIA_STATEMENTS.readyCountOfSpace, [spaceId, shownMedia]);
  return [privatePosts.rows[0].n, events.rows[0].n, media.rows[0].n];
}

/** GET /v1/spaces/{subdomain}. */
export const spaceFetch: TwinHandler = async ({ pool, url }) => {
  const space = await spaceByDomain(pool, decodeURIComponent(url.pathname.slice('/v1/spaces/'.length)));
  if (!space || !space.is_public) throw new TwinRefusal(404, 'no such space');
  const shown = [space.avatar_media_id, space.header_media_id].filter((id): id is string => id !== null);
  const [[privatePosts, events, media], state] = await Promise.all([
    countSummaries(pool, space.id, shown),
    stateOf(pool, space.did),
  ]);
  const questions =
    space.join_mode === 'application' && space.application_questions.length > 0
      ? space.application_questions.map((q) => ({ question: q.question, isRequired: q.isRequired }))
      : null;
  const profile =
    space.profile_content_id && space.profile_head_cid
      ? { contentId: space.profile_content_id, headOpCid: space.profile_head_cid }
      : null;
  return answer({
    id: wireId('space', space.id),
    did: space.did,
    domain: space.domain,
    displayName: space.display_name,
    description: space.description,
    avatarUrl: null,
    headerUrl: null,
    links: linkRecords(space.links),
    joinMode: space.join_mode,
    siteMode: space.site_mode,
    subscribeEnabled: space.subscribe_enabled,
    memberCountSummary: wordedSummary(space.member_count, 'members'),
    privatePostCountSummary: wordedSummary(privatePosts, 'private posts'),
    eventCountSummary: wordedSummary(events, 'events'),
    mediaUploadCountSummary: wordedSummary(media, 'media uploads'),
    ...(questions ? { applicationQuestions: questions } : {}),
    ...(space.category ? { category: space.category } : {}),
    verifiedDomain: space.verified_domain,
    ...(state ? { protocol: { headOpCid: state.headCid, ...(profile ? { profile } : {}) } } : {}),
    createdAt: space.created_at.toISOString(),
  });
};
