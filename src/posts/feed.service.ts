import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { RequestPrincipal } from '../common/auth/request-authenticator';
import { formatEntityId } from '../common/ids/entity-id';
import { CursorCodec } from '../common/pagination/cursor-codec';
import { paginateKeyset } from '../common/pagination/keyset';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { grantCoversSpace } from '../protocol';
import { SpaceReadView, SpaceDirectory } from '../spaces';
import { FeedListing } from './dto/post-records.dto';
import { Post } from './entities/post.entity';
import { narrowToRecentOfTopics } from './feed-recent';
import { PostAccess } from './post-access.service';
import { PostPresenter } from './post-presenter';
import { readCardRows, selectCardColumns } from './post-card-rows';

/**
 * GET /v1/feed (api-spec.md "Credential-gated reads"): the posts of every live space where the
 * acting person is an active member (and, with a credential, that it covers with `read:posts`), of
 * every topic they read in full there; newest first by (publishedAt, id); pinned posts not hoisted.
 */
@Injectable()
export class FeedService {
  constructor(
    @InjectRepository(Post) private readonly posts: Repository<Post>,
    private readonly access: PostAccess,
    private readonly directory: SpaceDirectory,
    private readonly presenter: PostPresenter,
    private readonly cursors: CursorCodec,
  ) {}

  async feed(principal: RequestPrincipal, query: PaginationQueryDto): Promise<FeedListing> {
    const views = await this.memberViews(principal);
    const topicIds = await this.readableTopicIds(views);
    const builder = selectCardColumns(this.posts.createQueryBuilder('post'));
    if (topicIds.length === 0) builder.where('FALSE');
    const page = await paginateKeyset(
      builder,
      {
        listing: 'feed',
        columns: [
          { expression: 'post.publishedAt', direction: 'DESC' },
          { expression: 'post.id', direction: 'DESC' },
        ],
        keyOf: (post) => [post.publishedAt.toISOString(), post.id],
        page: query,
        cursors: this.cursors,
        beforeRead: (seek) => {
          if (topicIds.length > 0) narrowToRecentOfTopics(builder, topicIds, seek);
        },
      },
      readCardRows,
    );
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

  /** Every live topic of those spaces the person reads in full (one query for the topics). */
  private async readableTopicIds(views: (SpaceReadView & { kind: 'member' })[]): Promise<string[]> {
    if (views.length === 0) return [];
    const bySpace = new Map(views.map((view) => [view.space.id, view]));
    const topics = await this.directory.topicsOf([...bySpace.keys()]);
    const verdicts = await Promise.all(
      topics.map((topic) => this.access.verdict(bySpace.get(topic.spaceId)!, topic)),
    );
    return topics.filter((_, index) => verdicts[index].readable).map((topic) => topic.id);
  }
}
