import { Injectable } from '@nestjs/common';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { formatEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetOptions, openKeysetPage } from '../../common/pagination/keyset';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { grantCoversSpace } from '../../protocol';
import { SpaceReadView, SpaceDirectoryService } from '../../spaces';
import { FeedListing } from '../dto/post-records.dto';
import { Post } from '../entities/post.entity';
import { PostCardsRepository } from '../repositories/post-cards.repository';
import { PostReadabilityService } from './post-readability.service';
import { PostPresenter } from './post.presenter';

/**
 * GET /v1/feed (api-spec.md "Credential-gated reads"): the posts of every live space where the
 * acting person is an active member (and, with a credential, that it covers with `read:posts`), of
 * every topic they read in full there; newest first by (publishedAt, id); pinned posts not hoisted.
 */
@Injectable()
export class FeedService {
  constructor(
    private readonly cards: PostCardsRepository,
    private readonly readability: PostReadabilityService,
    private readonly directory: SpaceDirectoryService,
    private readonly presenter: PostPresenter,
    private readonly cursors: CursorCodec,
  ) {}

  async feed(principal: RequestPrincipal, query: PaginationQueryDto): Promise<FeedListing> {
    const views = await this.memberViews(principal);
    const topicIds = await this.readableTopicIds(principal, views);
    const keyset: KeysetOptions<Post> = {
      listing: 'feed',
      columns: [
        { expression: 'published_at', direction: 'DESC' },
        { expression: 'id', direction: 'DESC' },
      ],
      keyOf: (post) => [post.publishedAt.toISOString(), post.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.cards.feedPage(topicIds, seek), keyset);
    const spaces = new Map(views.map((view) => [view.space.id, view.space]));
    const cards = await this.presenter.cards(page.rows, (post) => spaces.get(post.spaceId)!, principal.did);
    return {
      items: cards.map((card, index) => {
        const space = spaces.get(page.rows[index].spaceId)!;
        return {
          ...card,
          space: {
            id: formatEntityId('space', space.id),
            did: space.did,
            name: space.displayName ?? null,
            url: this.directory.publicUrl(space),
          },
        };
      }),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** The person's active memberships of live spaces the grant covers for `read:posts`. */
  private async memberViews(principal: RequestPrincipal): Promise<(SpaceReadView & { kind: 'member' })[]> {
    const memberships = await this.directory.memberSpacesOf(principal.did);
    return memberships
      .filter(
        ({ space }) =>
          !principal.credential || grantCoversSpace(principal.credential, space.did, 'read:posts'),
      )
      .map(({ space, role }) => ({ kind: 'member' as const, space, did: principal.did, role }));
  }

  /** Every live topic of those spaces the person reads in full (one query). */
  private readableTopicIds(
    principal: RequestPrincipal,
    views: (SpaceReadView & { kind: 'member' })[],
  ): Promise<string[]> {
    return this.readability.readableTopicIds(
      principal.did,
      views.map((view) => view.space.id),
    );
  }
}
