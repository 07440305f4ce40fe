import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AuthorRecord } from './dto/author.dto';
import { User } from './entities/user.entity';

/** Author records of many people at once, for listings (one query per page, never one per item). */
@Injectable()
export class AuthorDirectory {
  constructor(@InjectRepository(User) private readonly users: Repository<User>) {}

  /** An author record for every one of these DIDs; people without an account get `{ did }`. */
  async authorsOf(dids: readonly string[]): Promise<Map<string, AuthorRecord>> {
    const unique = [...new Set(dids)];
    const authors = new Map<string, AuthorRecord>(unique.map((did) => [did, { did }]));
    if (unique.length === 0) return authors;
    const accounts = await this.users.find({
      where: { did: In(unique) },
      select: { id: true, did: true, handle: true, displayName: true },
    });
    for (const account of accounts) {
      authors.set(account.did, {
        did: account.did,
        ...(account.displayName ? { displayName: account.displayName } : {}),
        ...(account.handle ? { username: account.handle } : {}),
      });
    }
    return authors;
  }
}
