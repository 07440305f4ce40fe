import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuthorRecord } from './dto/author.dto';
import { User } from './entities/user.entity';
import { MediaLookup } from '../media';

/** Author records of many people at once, for listings (one query per page, never one per item). */
@Injectable()
export class AuthorDirectory {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly media: MediaLookup,
  ) {}

  /** An author record for every one of these DIDs; people without an account get `{ did }`. */
  async authorsOf(dids: readonly string[]): Promise<Map<string, AuthorRecord>> {
    const unique = [...new Set(dids)];
    const authors = new Map<string, AuthorRecord>(unique.map((did) => [did, { did }]));
    if (unique.length === 0) return authors;
    // Fixed SQL: every listing page asks this once.
    const accounts: {
      did: string;
      handle: string | null;
      display_name: string | null;
      avatar_id: string | null;
    }[] = await this.users.query(
      'SELECT did, handle, display_name, avatar_id FROM users WHERE did = ANY($1)',
      [unique],
    );
    // Avatars in one more query, only when someone on the page has one.
    const avatars = await this.media.imageUrls(accounts.map((account) => account.avatar_id));
    for (const account of accounts) {
      authors.set(
        account.did,
        authorRecordOf(
          account.did,
          { ...account, displayName: account.display_name },
          (account.avatar_id && avatars.get(account.avatar_id)) || null,
        ),
      );
    }
    return authors;
  }

  /** Which of these DIDs belong to people with a public profile (release credits show only those). */
  async withPublicProfile(dids: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(dids)];
    if (unique.length === 0) return new Set();
    const accounts: { did: string }[] = await this.users.query(
      'SELECT did FROM users WHERE did = ANY($1) AND is_public',
      [unique],
    );
    return new Set(accounts.map((account) => account.did));
  }
}

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
