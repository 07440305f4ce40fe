import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CommentAuthor } from './dto/comment-records.dto';

/**
 * Author display data (api-spec.md "Author") of a page of comments in one query: `did` always,
 * `displayName` and `username` (the handle) only for people with an account and only when set.
 * Avatars are media, which this API does not serve yet, so `avatarUrl` is never present.
 * (To be merged with a users-module author reader once one exists.)
 */
@Injectable()
export class CommentAuthors {
  constructor(private readonly dataSource: DataSource) {}

  async of(dids: string[]): Promise<Map<string, CommentAuthor>> {
    const unique = [...new Set(dids)];
    const authors = new Map<string, CommentAuthor>(unique.map((did) => [did, { did }]));
    if (unique.length === 0) return authors;
    const rows: { did: string; display_name: string | null; handle: string | null }[] =
      await this.dataSource.query('SELECT did, display_name, handle FROM users WHERE did = ANY($1)', [
        unique,
      ]);
    for (const row of rows) {
      authors.set(row.did, {
        did: row.did,
        ...(row.display_name ? { displayName: row.display_name } : {}),
        ...(row.handle ? { username: row.handle } : {}),
      });
    }
    return authors;
  }
}
