import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { UpvoteResponse } from '../dto/post-records.dto';
import { PostUpvoted } from '../events/post.events';
import { PostsRepository } from '../repositories/posts.repository';
import { PostAccessService } from './post-access.service';

/**
 * PUT/DELETE …/posts/{postId}/upvote (api-spec.md "Rules for writes" 7): idempotent; PUT always
 * answers upvoted true, DELETE false, with the post's count. The caller writes as a member
 * (Authentication item 8) and must be able to read the post, else the one 404.
 */
@Injectable()
export class PostUpvotesService {
  constructor(
    private readonly access: PostAccessService,
    private readonly posts: PostsRepository,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  async set(
    principal: RequestPrincipal,
    spaceRef: string,
    postId: string,
    upvoted: boolean,
  ): Promise<UpvoteResponse> {
    const writer = await this.access.writer(principal, spaceRef, 'write:upvotes');
    const post = await this.access.postReadableByWriter(writer, postId);
    if (!upvoted) {
      const count = await this.posts.withdrawUpvote(post.id, writer.did);
      return { upvoted, upvoteCount: Math.max(0, Number(count ?? 0)) };
    }
    const count = await this.dataSource.transaction(async (manager) => {
      const row = await this.posts.upvote(post.id, writer.did, this.clock.now(), manager);
      if (row?.changed) {
        await this.events.emit(manager, new PostUpvoted(post.spaceId, post.id, post.authorDid, writer.did));
      }
      return row?.count ?? 0;
    });
    return { upvoted, upvoteCount: Math.max(0, Number(count)) };
  }
}
