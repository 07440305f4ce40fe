import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PostReadersRepository, PostSubject, ReaderQuery } from '../repositories/post-readers.repository';

export type { PostSubject, ReaderQuery };

/**
 * Who reads which posts and topics now, many at once, for other modules that show what they
 * recorded about posts (notifications' titles and recipients) without naming posts' tables. One
 * rule (`memberReadsTopic` in PostReadersRepository) decides, as PostAccessService.verdict does for one
 * view and topic.
 */
@Injectable()
export class PostReadabilityService {
  constructor(private readonly repository: PostReadersRepository) {}

  /** The ids (uuid) among `postIds` that `did` reads now as an active member; no statement for none. */
  async readableByMember(did: string, postIds: readonly string[]): Promise<Set<string>> {
    if (postIds.length === 0) return new Set();
    return new Set(await this.repository.readableByMember(did, [...new Set(postIds)]));
  }

  /**
   * The live topics (uuid) of `spaceIds` whose posts `readerDid` reads in full (null: nobody
   * signed in), in one statement; no statement for no space. An active member reads by the
   * member rules; anyone else the `public` topics of spaces with a public profile, and the
   * `signedIn` ones when signed in and not a former or banned member.
   */
  async readableTopicIds(readerDid: string | null, spaceIds: readonly string[]): Promise<string[]> {
    if (spaceIds.length === 0) return [];
    return this.repository.readableTopics(readerDid, [...new Set(spaceIds)]);
  }

  /** A live post (uuid) as the subject of a notification, else null. */
  subject(postId: string, manager?: EntityManager): Promise<PostSubject | null> {
    return this.repository.postSubject(postId, manager);
  }

  /** Readers of the post among the active members of its space, in DID order. */
  readers(
    post: Pick<PostSubject, 'id' | 'spaceId'>,
    query: ReaderQuery,
    manager?: EntityManager,
  ): Promise<string[]> {
    return this.repository.readersOfPost(post, query, manager);
  }
}
