import { stateOf, verifyBareProof } from './auth';
import { answer, TwinRefusal, wireId, type TwinHandler } from './context';
import { linkRecords, type LinkRow } from './rows';
import { USERS_STATEMENTS } from '../../src/users/users.repository';

/**
 * People, bare: the directory of public profiles (the keyset page, then one query for the pinned
 * spaces of the page's people) and the caller's own profile (the proof, the account by DID, the
 * identity state for the protocol block), on the users module's declared statements.
 */

interface UserRow {
  id: string;
  did: string;
  handle: string;
  display_name: string | null;
  bio: string | null;
  links: LinkRow[];
  is_public: boolean;
  email: string | null;
  verified_domain: string | null;
  profile_content_id: string | null;
  profile_head_cid: string | null;
  created_at: Date;
  updated_at: Date;
}

const LISTING = 'public-users';

function profileFields(user: UserRow): Record<string, unknown> {
  return {
    id: wireId('identity', user.id),
    did: user.did,
    handle: user.handle,
    displayName: user.display_name,
    avatarUrl: null,
    bio: user.bio,
    links: linkRecords(user.links),
    verifiedDomain: user.verified_domain,
  };
}

/** GET /v1/users?limit=…: earliest account first. */
export const usersDirectory: TwinHandler = async ({ pool, url, cursors }) => {
  const limit = Number(url.searchParams.get('limit') ?? 20);
  const cursor = url.searchParams.get('after');
  const after = cursor === null ? null : cursors.decode(LISTING, cursor);
  if (cursor !== null && (after === null || after.length !== 2)) throw new TwinRefusal(400, 'Invalid cursor');
  const { rows } = await pool.query<UserRow>(
    after ? USERS_STATEMENTS.publicPage.after : USERS_STATEMENTS.publicPage.first,
    after ? [...after, limit + 1] : [limit + 1],
  );
  const page = rows.slice(0, limit);
  const pinned = new Map<string, Record<string, unknown>[]>(page.map((user) => [user.id, []]));
  if (page.length > 0) {
    const { rows: pins } = await pool.query<{
      user_id: string;
      did: string;
      domain: string;
      display_name: string | null;
    }>(USERS_STATEMENTS.pinnedCards, [page.map((user) => user.id)]);
    for (const pin of pins)
      pinned.get(pin.user_id)?.push({
        did: pin.did,
        domain: pin.domain,
        displayName: pin.display_name,
        avatarUrl: null,
      });
  }
  const encode = (user: UserRow | undefined) =>
    user ? cursors.encode(LISTING, [user.created_at.toISOString(), user.id]) : null;
  return answer({
    items: page.map((user) => ({ ...profileFields(user), pinnedSpaces: pinned.get(user.id) ?? [] })),
    nextCursor: rows.length > limit ? encode(page[page.length - 1]) : null,
    previousCursor: after ? encode(page[0]) : null,
  });
};

/** GET /v1/profile with a bare identity proof (so `email` is included). */
export const ownProfile: TwinHandler = async ({ pool, request }) => {
  const proof = await verifyBareProof(pool, request);
  const { rows } = await pool.query<UserRow>(USERS_STATEMENTS.userByDid, [proof.did]);
  const user = rows[0];
  if (!user) throw new TwinRefusal(404, 'no account');
  const state = await stateOf(pool, user.did);
  const profile =
    user.is_public && user.profile_content_id && user.profile_head_cid
      ? { contentId: user.profile_content_id, headOpCid: user.profile_head_cid }
      : undefined;
  return answer({
    ...profileFields(user),
    ...(state ? { protocol: { headOpCid: state.headCid, ...(profile ? { profile } : {}) } } : {}),
    isPublic: user.is_public,
    email: user.email,
    createdAt: user.created_at.toISOString(),
    updatedAt: user.updated_at.toISOString(),
  });
};
