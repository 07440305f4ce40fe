import { SelectQueryBuilder } from 'typeorm';
import { StoredProfileLink, User } from './entities/user.entity';

/**
 * An account by one key, on fixed SQL with an explicit mapping: the profile routes and the public
 * user record read one every request, and TypeORM's find built the statement again each time
 * (docs/decisions/0084-hot-reads-on-fixed-sql-with-explicit-row-mapping.md).
 */
const COLUMNS = `id, did, handle, display_name, bio, avatar_id, links, is_public, email, verified_domain,
  profile_content_id, profile_head_cid, created_at, updated_at`;

const byKey = (key: 'id' | 'did' | 'handle') => `SELECT ${COLUMNS} FROM users WHERE ${key} = $1 LIMIT 1`;

export const USER_BY_ID = byKey('id');
export const USER_BY_DID = byKey('did');
export const USER_BY_HANDLE = byKey('handle');

export interface UserRow {
  id: string;
  did: string;
  handle: string;
  display_name: string | null;
  bio: string | null;
  avatar_id: string | null;
  links: StoredProfileLink[];
  is_public: boolean;
  email: string | null;
  verified_domain: string | null;
  profile_content_id: string | null;
  profile_head_cid: string | null;
  created_at: Date;
  updated_at: Date;
}

export function userFromRow(row: UserRow): User {
  const user = new User();
  user.id = row.id;
  user.did = row.did;
  user.handle = row.handle;
  user.displayName = row.display_name;
  user.bio = row.bio;
  user.avatarId = row.avatar_id;
  user.links = row.links;
  user.isPublic = row.is_public;
  user.email = row.email;
  user.verifiedDomain = row.verified_domain;
  user.profileContentId = row.profile_content_id;
  user.profileHeadCid = row.profile_head_cid;
  user.createdAt = row.created_at;
  user.updatedAt = row.updated_at;
  return user;
}

/**
 * The rows of a query over every column of `users` aliased `user` (TypeORM names them
 * `user_<column>`), mapped by `userFromRow` instead of TypeORM's hydration (the directory's pages).
 */
export async function readUserRows(query: SelectQueryBuilder<User>): Promise<User[]> {
  const rows = await query.getRawMany<Record<string, unknown>>();
  return rows.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(raw)) row[name.slice('user_'.length)] = value;
    return userFromRow(row as unknown as UserRow);
  });
}
