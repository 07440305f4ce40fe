import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { User } from './user.entity';

/** What other modules show of a person who has an account (api-spec.md "Author"). */
export interface AccountSummary {
  did: string;
  handle: string;
  displayName: string | null;
}

/** Display data of many people at once, for listings (one query per page, never one per item). */
@Injectable()
export class AuthorDirectory {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  /** The accounts among these DIDs, by DID; people without an account are absent. */
  async summariesOf(dids: readonly string[]): Promise<Map<string, AccountSummary>> {
    const unique = [...new Set(dids)];
    if (unique.length === 0) return new Map();
    const users = await this.users.find({
      where: { did: In(unique) },
      select: { id: true, did: true, handle: true, displayName: true },
    });
    return new Map(
      users.map((user) => [user.did, { did: user.did, handle: user.handle, displayName: user.displayName }]),
    );
  }
}
