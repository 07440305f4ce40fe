import { stateOf } from './auth';
import { answer, TwinRefusal, wireId, type TwinHandler } from './context';
import { spaceByDomain, wordedSummary, type SpaceRow } from './rows';

/**
 * The public space directory and the single fetch, bare: the keyset query over the directory's
 * partial index (card columns only, limit + 1 rows), the app's cursors; the single fetch reads the
 * space, then in parallel the registered counts one after the other (private posts, events)
 * and the identity state for the protocol block (cached 60 s, as the app caches it).
 */

const CARD_COLUMNS =
  'id, did, domain, display_name, description, links, member_count, verified_domain, category, last_activity_at';
const LISTING = 'public-spaces';

function spaceCard(row: SpaceRow): Record<string, unknown> {
  return {
    id: wireId('space', row.id),
    did: row.did,
    domain: row.domain,
    displayName: row.display_name,
    description: row.description,
    avatarUrl: null,
    links: row.links.map((l) => ({ url: l.url, label: l.label, description: l.description })),
    memberCountSummary: wordedSummary(row.member_count, 'members'),
    verifiedDomain: row.verified_domain,
    ...(row.category ? { category: row.category } : {}),
  };
}

/** GET /v1/spaces?limit=…[&after=…]. */
export const spacesDirectory: TwinHandler = async ({ pool, url, cursors }) => {
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const cursor = url.searchParams.get('after');
  const after = cursor === null ? null : cursors.decode(LISTING, cursor);
  if (cursor !== null && (after === null || after.length !== 2)) throw new TwinRefusal(400, 'Invalid cursor');
  const { rows } = after
    ? await pool.query<SpaceRow>(
        `SELECT ${CARD_COLUMNS} FROM spaces
         WHERE is_public AND last_activity_at IS NOT NULL AND deleted_at IS NULL
           AND (last_activity_at, id) < ($1, $2)
         ORDER BY last_activity_at DESC, id DESC LIMIT ${limit + 1}`,
        after,
      )
    : await pool.query<SpaceRow>(
        `SELECT ${CARD_COLUMNS} FROM spaces
         WHERE is_public AND last_activity_at IS NOT NULL AND deleted_at IS NULL
         ORDER BY last_activity_at DESC, id DESC LIMIT ${limit + 1}`,
      );
  const page = rows.slice(0, limit);
  const encode = (row: SpaceRow | undefined) =>
    row ? cursors.encode(LISTING, [row.last_activity_at!.toISOString(), row.id]) : null;
  return answer({
    items: page.map(spaceCard),
    nextCursor: rows.length > limit ? encode(page[page.length - 1]) : null,
    previousCursor: after ? encode(page[0]) : null,
  });
};

/**
 * SpaceCounters.summaries: the counts the modules registered, one after the other in the order of
 * the answer (posts: private posts of live non-public topics; events: public and members events).
 */
async function countSummaries(
  pool: Parameters<TwinHandler>[0]['pool'],
  spaceId: string,
  shownMedia: string[],
): Promise<[number, number, number]> {
  const privatePosts = await pool.query<{ n: number }>(
    `SELECT COALESCE(sum(c."short_posts" + c."long_posts"), 0)::int AS n
       FROM "post_topic_counts" c
       JOIN "live_space_topics" t ON t."id" = c."topic_id" AND t."space_id" = $1
       WHERE c."space_id" = $1 AND t."access_kind" <> 'public'`,
    [spaceId],
  );
  const events = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS "n" FROM "events" WHERE "space_id" = $1 AND "visibility" IN ('public', 'members')`,
    [spaceId],
  );
  const media = await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM media WHERE state = 'ready' AND (space_id = $1 OR id = ANY($2::uuid[]))`,
    [spaceId, shownMedia],
  );
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
    links: space.links.map((l) => ({ url: l.url, label: l.label, description: l.description })),
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
