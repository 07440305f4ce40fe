import { Injectable } from '@nestjs/common';
import { AuthorDirectoryService } from '../../users';
import { StoredPerson } from '../entities/notification.entity';

/**
 * How notifications name people (design.md §14: never a bare DID when a profile exists): the
 * account's display name, else its handle; a DID without an account stays a DID in titles and
 * has `displayName` null.
 */
@Injectable()
export class PeopleNamesService {
  constructor(private readonly authors: AuthorDirectoryService) {}

  async of(dids: string[]): Promise<(did: string) => StoredPerson> {
    const authors = await this.authors.authorsOf(dids);
    return (did) => {
      const author = authors.get(did);
      return { did, displayName: author?.displayName ?? author?.username ?? null };
    };
  }
}
