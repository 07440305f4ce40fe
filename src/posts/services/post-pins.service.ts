import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { notFound } from '../../common/errors/api-error';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { SpaceAccessService, SpaceDirectoryService } from '../../spaces';
import { PostCard } from '../dto/post-records.dto';
import { PostPinned } from '../events/post.events';
import { PostsRepository } from '../repositories/posts.repository';
import { PostAccessService } from './post-access.service';
import { PostPresenter } from './post.presenter';

/**
 * PUT/DELETE /spaces/{space}/posts/{post}/pin (design.md §9): admins pin or unpin any live post of
 * the space (arrangement, not moderation) and get the post card back. Pinning again changes
 * nothing; a pin that changes the post emits `PostPinned` (notify.post.pinned, to the admins).
 * Listings stay ordered by recency; `isPinned` lets clients hoist.
 */
@Injectable()
export class PostPinsService {
  constructor(
    private readonly spaces: SpaceAccessService,
    private readonly directory: SpaceDirectoryService,
    private readonly access: PostAccessService,
    private readonly presenter: PostPresenter,
    private readonly posts: PostsRepository,
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {}

  async set(principal: RequestPrincipal, pathId: string, postId: string, pinned: boolean): Promise<PostCard> {
    const { space } = await this.spaces.resolveAdmin(pathId, principal.did);
    const post = await this.access.postInSpace(space.id, postId);
    // A post of a deleted topic is gone everywhere; admins read every live topic.
    if (!(await this.directory.topicView(space.id, post.topicId))) throw notFound();
    await this.dataSource.transaction(async (manager) => {
      const changed = await this.posts.setPinned(post.id, pinned, manager);
      if (pinned && changed) {
        await this.events.emit(manager, new PostPinned(space.id, post.id, post.topicId, principal.did));
      }
    });
    post.isPinned = pinned;
    const [card] = await this.presenter.cards([post], () => space, principal.did);
    return card;
  }
}
