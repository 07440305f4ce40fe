import { AuthorRecord } from '../dto/author.dto';

/**
 * The author record of `did` from its account's handle and display name (a row of the published
 * view `author_records`, read by modules that join it), or `{ did }` without an account.
 */
export function authorRecordOf(
  did: string,
  account: { handle: string | null; displayName: string | null } | undefined,
  avatarUrl: string | null = null,
): AuthorRecord {
  return {
    did,
    ...(account?.displayName ? { displayName: account.displayName } : {}),
    ...(account?.handle ? { username: account.handle } : {}),
    ...(avatarUrl ? { avatarUrl } : {}),
  };
}
