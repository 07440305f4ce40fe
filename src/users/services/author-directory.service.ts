import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MediaLookupService } from '../../media';
import { authorRecordOf } from '../domain/author-record';
import { AuthorRecord } from '../dto/author.dto';
import { UsersRepository } from '../users.repository';

/**
 * Author records of many people at once, for other modules' listings: one statement for any
 * number of DIDs (never one per item), and one more for the avatars only when someone has one.
 */
@Injectable()
export class AuthorDirectoryService {
  constructor(
    private readonly users: UsersRepository,
    private readonly media: MediaLookupService,
  ) {}

  /**
   * An author record for every one of these DIDs (duplicates read once): an account gives its
   * handle, display name and avatar, private profiles included (an author is named where they
   * wrote); a DID without an account gets `{ did }`. A deactivated identity gets no record at all
   * (docs/decisions/0190-deactivation-follows-the-identity-chain.md): a post shows its author as
   * null, a comment as `{ did }`, a notification names nobody.
   */
  async authorsOf(dids: readonly string[], runner?: EntityManager): Promise<Map<string, AuthorRecord>> {
    const unique = [...new Set(dids)];
    const authors = new Map<string, AuthorRecord>(unique.map((did) => [did, { did }]));
    if (unique.length === 0) return authors;
    const rows = await this.users.authorRows(unique, runner);
    const accounts = rows.filter((row) => !row.deactivated);
    for (const row of rows) if (row.deactivated) authors.delete(row.did);
    // Avatars in one more query, only when someone on the page has one.
    const avatars = await this.media.imageUrls(
      accounts.map((account) => account.avatar_id),
      runner,
    );
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

  /**
   * Which of these DIDs belong to people with a public profile (release credits show only those),
   * deactivated identities not among them.
   */
  async withPublicProfile(dids: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(dids)];
    if (unique.length === 0) return new Set();
    return new Set(await this.users.publicDids(unique));
  }
}
