import { Injectable } from '@nestjs/common';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Scope } from '../../common/auth/route-access';
import { notFound } from '../../common/errors/api-error';
import { parseEntityId } from '../../common/ids/entity-id';
import { GroupMembershipLookupService } from '../../memberships';
import {
  SpaceGrantAccessService,
  SpaceReadView,
  SpaceWriter,
  SpaceDirectoryService,
  TopicView,
} from '../../spaces';
import { Post } from '../entities/post.entity';
import { PostHead, PostsRepository } from '../repositories/posts.repository';

/** Why a post's content is withheld (api-spec.md "Post response union"). */
export type GatedReason = 'signIn' | 'spaceMembers' | 'restricted';

/** What a viewer may do with a topic's posts: read them, or see them gated for a reason. */
export type TopicVerdict = { readable: true } | { readable: false; reason: GatedReason };

export type { PostHead };

/** A post the caller may read, with the view it was read through. */
export interface ReadablePost {
  view: SpaceReadView;
  post: PostHead;
  topic: TopicView;
}

/**
 * Who reads and writes which posts, for posts and comments alike (design.md §9, api-spec.md
 * "Authentication" items 6–8 through SpaceGrantAccessService):
 * - a post's readability is its topic's `access`: `public` for anyone; `signedIn` for the member
 *   and visitor views (a signed-in non-member whose grant covers the space, never a member); the
 *   rest for members only: `members` for all, `groups` for members of one of the groups and for the
 *   space's owners and admins. Former members read the anonymous projection (item 6);
 * - the anonymous view sees `signedIn` posts gated `signIn`; anonymous and visitor views see
 *   `members` posts `spaceMembers` and group posts `restricted`; a member outside the groups sees
 *   them `restricted`;
 * - a writer posts only in a topic they can read; any other topic is the 404 (api-spec "Writes" 2).
 */
@Injectable()
export class PostAccessService {
  constructor(
    private readonly grants: SpaceGrantAccessService,
    private readonly directory: SpaceDirectoryService,
    private readonly groups: GroupMembershipLookupService,
    private readonly posts: PostsRepository,
  ) {}

  /** The live topics of the view's space whose posts this view reads in full (listings, feed). */
  async readableTopics(view: SpaceReadView): Promise<TopicView[]> {
    const topics = await this.directory.topicsOf(
      [view.space.id],
      view.kind === 'member' ? undefined : view.kind === 'visitor' ? ['public', 'signedIn'] : ['public'],
    );
    const verdicts = await Promise.all(topics.map((topic) => this.verdict(view, topic)));
    return topics.filter((_, index) => verdicts[index].readable);
  }

  /** The space as this caller reads it (404 for a hidden space). */
  readView(principal: RequestPrincipal | null | undefined, spaceRef: string, scope: Scope = 'read:posts') {
    return this.grants.forRead(principal, spaceRef, scope);
  }

  /**
   * The space as this caller writes to it (403/404 per api-spec "Authentication" item 8). Every
   * write to posts, comments and upvotes reads too, so the grant must carry `read:posts` for this
   * very space as well as the write scope (the route guard only checks it is held somewhere).
   */
  writer(principal: RequestPrincipal, spaceRef: string, scope: Scope): Promise<SpaceWriter> {
    return this.grants.forWrite(principal, spaceRef, [scope, 'read:posts']);
  }

  /**
   * `writer` and `writableTopic` together, with the space, the caller's membership and the topic
   * read in one query (the post create path).
   */
  async writerInTopic(
    principal: RequestPrincipal,
    spaceRef: string,
    scope: Scope,
    topicId: string,
  ): Promise<{ writer: SpaceWriter; topic: TopicView }> {
    const { writer, topic } = await this.grants.forWriteInTopic(
      principal,
      spaceRef,
      [scope, 'read:posts'],
      topicId,
    );
    return { writer, topic: await this.readableByWriter(writer, topic) };
  }

  async verdict(view: SpaceReadView, topic: TopicView): Promise<TopicVerdict> {
    switch (topic.accessKind) {
      case 'public':
        return { readable: true };
      case 'signedIn':
        return view.kind === 'anonymous' ? { readable: false, reason: 'signIn' } : { readable: true };
      case 'members':
        return view.kind === 'member' ? { readable: true } : { readable: false, reason: 'spaceMembers' };
      default:
        if (view.kind !== 'member') return { readable: false, reason: 'restricted' };
        if (view.role === 'owner' || view.role === 'admin') return { readable: true };
        return (await this.groups.inAnyGroup(view.space.id, view.did, topic.accessGroupIds))
          ? { readable: true }
          : { readable: false, reason: 'restricted' };
    }
  }

  /** A live topic of the writer's space that the writer can read, else the 404. */
  async writableTopic(writer: SpaceWriter, topicId: string): Promise<TopicView> {
    return this.readableByWriter(writer, await this.directory.findTopic(writer.space.id, topicId));
  }

  private async readableByWriter(writer: SpaceWriter, topic: TopicView | null): Promise<TopicView> {
    if (!topic) throw notFound();
    const view: SpaceReadView = { kind: 'member', space: writer.space, did: writer.did, role: writer.role };
    if (!(await this.verdict(view, topic)).readable) throw notFound();
    return topic;
  }

  /**
   * A post of the writer's space that the writer can read, else the 404: the writes that hang on
   * a post (comments, upvotes) check it through the writer they already resolved.
   */
  async postReadableByWriter(writer: SpaceWriter, postId: string): Promise<PostHead> {
    const post = await this.postHeadInSpace(writer.space.id, postId);
    await this.readableByWriter(writer, await this.directory.topicView(writer.space.id, post.topicId));
    return post;
  }

  /** A live post of the space by its `post_…` id, else the 404 (another space's id included). */
  async postInSpace(spaceId: string, postId: string): Promise<Post> {
    const uuid = parseEntityId('post', postId);
    const post = uuid ? await this.posts.liveInSpace(uuid, spaceId) : null;
    if (!post) throw notFound();
    return post;
  }

  /** The head of a live post of the space by its `post_…` id, else the 404 (fixed SQL, no body). */
  async postHeadInSpace(spaceId: string, postId: string): Promise<PostHead> {
    const uuid = parseEntityId('post', postId);
    const post = uuid ? await this.posts.headInSpace(uuid, spaceId) : null;
    if (!post) throw notFound();
    return post;
  }

  /**
   * A post this caller may read in full (comments hang on it), else the 404: a gated post does
   * not reveal whether it exists to someone who cannot read it.
   */
  async readablePost(
    principal: RequestPrincipal | null | undefined,
    spaceRef: string,
    postId: string,
  ): Promise<ReadablePost> {
    const view = await this.readView(principal, spaceRef);
    const post = await this.postHeadInSpace(view.space.id, postId);
    const topic = await this.directory.topicView(view.space.id, post.topicId);
    if (!topic || !(await this.verdict(view, topic)).readable) throw notFound();
    return { view, post, topic };
  }
}
