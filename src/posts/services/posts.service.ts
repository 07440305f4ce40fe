import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { forbidden, invalidRequest, notFound, ValidationDetail } from '../../common/errors/api-error';
import { formatEntityId, newUuid, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, openKeysetPage } from '../../common/pagination/keyset';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { LinkPreviewsService } from '../../link-previews';
import { attachmentTokensOf, MediaLookupService } from '../../media';
import { SpaceReadView, SpaceWriter, SpaceDirectoryService, TopicView } from '../../spaces';
import { AuthorRecord, authorRecordOf } from '../../users';
import { cardTextColumns } from '../domain/post-card-text';
import { ChainNotStored, isPublicPlace } from '../domain/post-document';
import { applyFold, bareUrlsOf, slugOf } from '../domain/post-text';
import { DeletedPostResponse, FullPost, PostListing, PostResponse } from '../dto/post-records.dto';
import {
  CreatePostRequest,
  POST_LIMITS,
  PostListingQuery,
  UpdatePostRequest,
} from '../dto/post-requests.dto';
import { Post } from '../entities/post.entity';
import { PostDeleted, PostPublished, PostUpdated } from '../events/post.events';
import { PostCardsRepository, SpacePostFilters } from '../repositories/post-cards.repository';
import { PostsRepository } from '../repositories/posts.repository';
import { PostAccessService } from './post-access.service';
import { PostContentChainService } from './post-content-chain.service';
import { PostCountsService } from './post-counts.service';
import { PostPresenter } from './post.presenter';

/** The author record a post insert read, and the avatar it names (resolved with the post's media). */
interface InsertedAuthor {
  author: AuthorRecord;
  avatarId: string | null;
}

/** A date-filtered listing counts a range of up to this many posts, and omits totalCount beyond. */
const DATED_COUNT_CAP = 1000;

/**
 * The posts of a space (api-spec.md "Optional-auth reads", "Writes"): the listing (anonymous
 * public projection or the member view), the single post union, and the author's writes.
 */
@Injectable()
export class PostsService {
  private readonly logger = new Logger(PostsService.name);

  constructor(
    private readonly posts: PostsRepository,
    private readonly cards: PostCardsRepository,
    private readonly access: PostAccessService,
    private readonly directory: SpaceDirectoryService,
    private readonly presenter: PostPresenter,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly chain: PostContentChainService,
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
    private readonly counts: PostCountsService,
    private readonly media: MediaLookupService,
    private readonly previews: LinkPreviewsService,
  ) {}

  /**
   * GET /v1/spaces/{space}/posts: posts of the topics this view reads in full (anonymous: public
   * topics), newest (or oldest) first by (publishedAt, id); totalCount under the filters (see
   * `totalOf`). A topic filter naming anything outside those topics lists nothing.
   */
  async list(
    principal: RequestPrincipal | null,
    spaceRef: string,
    query: PostListingQuery,
  ): Promise<PostListing> {
    const view = await this.access.readView(principal, spaceRef);
    let topicIds = (await this.access.readableTopics(view)).map((topic) => topic.id);
    if (query.topic !== undefined) {
      const wanted = parseEntityId('topic', query.topic);
      topicIds = wanted && topicIds.includes(wanted) ? [wanted] : [];
    }
    const direction: 'ASC' | 'DESC' = query.sort === 'oldest' ? 'ASC' : 'DESC';
    const keyset = {
      listing: `space-posts:${direction}`,
      columns: [
        { expression: 'published_at', direction },
        { expression: 'id', direction },
      ],
      keyOf: (post: Post) => [post.publishedAt.toISOString(), post.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const [rows, totalCount] = await Promise.all([
      this.cards.spacePage(view.space.id, topicIds, filtersOf(query), seek, direction),
      this.totalOf(topicIds, query),
    ]);
    const page = closeKeysetPage(seek, rows, keyset);
    const items = await this.presenter.cards(page.rows, () => view.space, viewerOf(view));
    const listing: PostListing = { items, nextCursor: page.nextCursor, previousCursor: page.previousCursor };
    if (totalCount !== null) listing.totalCount = totalCount;
    return listing;
  }

  /**
   * The listing's totalCount without counting the posts: topic and format filters sum the
   * per-topic counters; a date filter reads at most `DATED_COUNT_CAP + 1` posts of the range and
   * omits totalCount (api-spec.md: optional) when the range holds more.
   */
  private async totalOf(topicIds: string[], query: PostListingQuery): Promise<number | null> {
    const { publishedAfter, publishedBefore, format } = query;
    if (publishedAfter === undefined && publishedBefore === undefined) {
      return this.counts.inTopics(topicIds, format);
    }
    const range = {
      after: publishedAfter === undefined ? undefined : new Date(publishedAfter),
      before: publishedBefore === undefined ? undefined : new Date(publishedBefore),
      format,
    };
    return this.counts.inRange(topicIds, range, DATED_COUNT_CAP);
  }

  /** GET /v1/spaces/{space}/posts/{postId}: eligible with the full post, or gated with a reason. */
  async get(principal: RequestPrincipal | null, spaceRef: string, postId: string): Promise<PostResponse> {
    const view = await this.access.readView(principal, spaceRef);
    const post = await this.access.postInSpace(view.space.id, postId);
    const topic = await this.topicOf(post);
    const verdict = await this.access.verdict(view, topic);
    const space = await this.presenter.callToAction(view.space);
    if (!verdict.readable) return { state: 'gated', reason: verdict.reason, space };
    return {
      state: 'eligible',
      post: await this.presenter.full(post, view.space, topic, viewerOf(view)),
      space,
    };
  }

  /**
   * POST /v1/spaces/{space}/posts: 201 with the full post at the author's own fold. The space, the
   * caller's membership and the topic are one query; the post, its count, the space's activity and
   * (in a public place) its content chain one transaction; the answer is built from what was written.
   */
  async create(principal: RequestPrincipal, spaceRef: string, request: CreatePostRequest): Promise<FullPost> {
    const { writer, topic } = await this.access.writerInTopic(
      principal,
      spaceRef,
      'write:posts',
      request.topic,
    );
    const title = request.title ?? null;
    const attachmentIds = await this.checkContent(writer, title, request.body, request.attachments ?? []);
    const now = this.clock.now();
    const post = Object.assign(new Post(), {
      id: newUuid(),
      spaceId: writer.space.id,
      topicId: topic.id,
      authorDid: writer.did,
      title,
      body: request.body,
      slug: slugOf(title, request.body),
      ...cardTextColumns(title, request.body, now),
      attachmentIds,
      upvoteCount: 0,
      commentCount: 0,
      isPinned: false,
      publishedAt: now,
      updatedAt: now,
      deletedAt: null,
      contentId: null,
      headCid: null,
      documentCid: null,
    });
    let author: InsertedAuthor;
    if (!isPublicPlace(writer.space, topic)) {
      author = await this.insert(post);
    } else {
      const genesis = this.chain.begin(post);
      try {
        author = await this.insert(post, (manager) => this.chain.store(manager, post, genesis));
      } catch (error) {
        if (!(error instanceof ChainNotStored)) throw error;
        // The relay refused the chain: the post commits without it, and the outbox publishes it.
        this.logger.warn(`${this.chain.chainName(post.id)} left to the outbox: ${String(error.cause)}`);
        Object.assign(post, { contentId: null, headCid: null, documentCid: null });
        author = await this.insert(post, (manager) => this.chain.enqueue(manager, [post.id]));
        await this.publish(post);
      }
    }
    this.resolveLinksOf(post.body);
    return this.presenter.full(post, writer.space, topic, writer.did, {
      upvoted: false,
      author: author.author,
      authorAvatarId: author.avatarId,
      unresolvedLinks: true,
    });
  }

  /**
   * After a post's write committed: its bare URLs (those its readers see) are queued for their
   * previews; no statement (docs/decisions/0157-link-resolution-queued-after-the-write.md). The
   * answer shows them unresolved.
   */
  private resolveLinksOf(body: string): void {
    const urls = bareUrlsOf(applyFold(body).body);
    if (urls.length > 0) this.previews.resolveSoon(urls);
  }

  /**
   * A new post's transaction: its row, its count and its author's record (one statement), the
   * space's activity, the PostPublished event, then `last` (the post's chain). The author record.
   */
  private insert(post: Post, last?: (manager: EntityManager) => Promise<void>): Promise<InsertedAuthor> {
    return this.dataSource.transaction(async (manager) => {
      const account = await this.posts.insert(post, manager);
      // The avatar's URL is the media module's: the answer resolves it with the post's own media.
      const author = { author: authorRecordOf(post.authorDid, account), avatarId: account?.avatarId ?? null };
      await this.directory.recordActivity(post.spaceId, post.publishedAt, manager);
      await this.events.emit(manager, new PostPublished(post.spaceId, post.id, post.topicId, post.authorDid));
      await last?.(manager);
      return author;
    });
  }

  /** PATCH /v1/spaces/{space}/posts/{postId}: the author's own post; omitted members untouched. */
  async update(
    principal: RequestPrincipal,
    spaceRef: string,
    postId: string,
    request: UpdatePostRequest,
  ): Promise<FullPost> {
    const { title: newTitle, body: newBody, topic: newTopic, attachments } = request;
    if (
      newTitle === undefined &&
      newBody === undefined &&
      newTopic === undefined &&
      attachments === undefined
    ) {
      throw invalidRequest('Invalid request', [
        { path: '', message: 'Name at least one of title, body, topic, attachments' },
      ]);
    }
    const writer = await this.access.writer(principal, spaceRef, 'write:posts');
    const { post, topic: currentTopic } = await this.ownPost(writer, postId);
    const topic = newTopic === undefined ? currentTopic : await this.access.writableTopic(writer, newTopic);
    const title = newTitle === undefined ? post.title : newTitle;
    const body = newBody ?? post.body;
    const attachmentIds = await this.checkContent(
      writer,
      title,
      body,
      attachments ?? post.attachmentIds.map((id) => formatEntityId('media', id)),
    );
    const formatChanged = !title !== !post.title;
    const now = this.clock.now();
    // A post that is public now, or was (it holds a chain), has a chain to follow it.
    const chained = isPublicPlace(writer.space, topic) || post.contentId !== null;
    const counted = { spaceId: post.spaceId, topicId: post.topicId, title: post.title };
    const cardText = cardTextColumns(title, body, now);
    Object.assign(post, {
      title,
      body,
      topicId: topic.id,
      slug: slugOf(title, body),
      ...cardText,
      attachmentIds,
      updatedAt: now,
    });
    await this.dataSource.transaction(async (manager) => {
      await this.counts.move(manager, counted, post);
      await this.posts.update(
        post.id,
        {
          title,
          body,
          topicId: topic.id,
          slug: post.slug,
          ...cardText,
          attachmentIds: post.attachmentIds,
          updatedAt: now,
        },
        manager,
      );
      await this.directory.recordActivity(writer.space.id, now, manager);
      if (chained) await this.chain.enqueue(manager, [post.id], formatChanged);
      await this.events.emit(manager, new PostUpdated(post.spaceId, post.id, post.topicId, post.authorDid));
    });
    if (chained) await this.publish(post);
    this.resolveLinksOf(post.body);
    return this.presenter.full(post, writer.space, topic, writer.did, { unresolvedLinks: true });
  }

  /** DELETE /v1/spaces/{space}/posts/{postId}: soft delete; the post is 404 from then on. */
  async remove(principal: RequestPrincipal, spaceRef: string, postId: string): Promise<DeletedPostResponse> {
    const writer = await this.access.writer(principal, spaceRef, 'write:posts');
    const { post } = await this.ownPost(writer, postId);
    const chained = post.contentId !== null;
    await this.dataSource.transaction(async (manager) => {
      await this.posts.softDelete(post.id, this.clock.now(), manager);
      await this.counts.add(manager, post, -1);
      if (chained) await this.chain.enqueue(manager, [post.id]);
      await this.events.emit(manager, new PostDeleted(post.spaceId, post.id, post.topicId, post.authorDid));
    });
    if (chained) await this.chain.settle([post.id]);
    return { deleted: true };
  }

  /**
   * The content rules of a post, then its media (design.md §11 "Use"): attachments are ready media
   * the writer uploaded to this space, `attachment://` tokens ready images of the same (one query
   * for both; none without media). Answers the attachments' uuids, in order.
   */
  private async checkContent(
    writer: SpaceWriter,
    title: string | null,
    body: string,
    attachments: string[],
  ): Promise<string[]> {
    const tokens = attachmentTokensOf(body);
    checkShape(title, tokens, attachments);
    if (attachments.length === 0 && tokens.length === 0) return [];
    const ids = await this.media.attachable(
      [
        ...attachments.map((mediaId, index) => ({ path: `attachments.${index}`, mediaId })),
        ...tokens.map((mediaId) => ({ path: 'body', mediaId, image: true })),
      ],
      { spaceId: writer.space.id, uploaderDid: writer.did },
    );
    return ids.slice(0, attachments.length);
  }

  /** Publishes the post's content chain after commit and takes the stored chain position onto `post`. */
  private async publish(post: Post): Promise<void> {
    await this.chain.settle([post.id]);
    const stored = await this.posts.chainPosition(post.id);
    if (stored) Object.assign(post, { contentId: stored.contentId, headCid: stored.headCid });
  }

  /**
   * The writer's own live post (in a live topic). Someone else's post is 403 when the writer can
   * read it (api-spec.md "Rules for writes" 8, admins included) and the one 404 when they cannot.
   */
  private async ownPost(writer: SpaceWriter, postId: string): Promise<{ post: Post; topic: TopicView }> {
    const post = await this.access.postInSpace(writer.space.id, postId);
    const topic = await this.topicOf(post);
    if (post.authorDid !== writer.did) {
      const view: SpaceReadView = { kind: 'member', space: writer.space, did: writer.did, role: writer.role };
      if (!(await this.access.verdict(view, topic)).readable) throw notFound();
      throw forbidden('Only the author changes or deletes a post');
    }
    return { post, topic };
  }

  /** The post's live topic; a post of a deleted topic is the one 404. */
  private async topicOf(post: Post): Promise<TopicView> {
    const topic = await this.directory.topicView(post.spaceId, post.topicId);
    if (!topic) throw notFound();
    return topic;
  }
}

/** The member projection carries `viewer`; the anonymous one never does. */
export function viewerOf(view: SpaceReadView): string | null {
  return view.kind === 'member' ? view.did : null;
}

/**
 * Content rules of a post that need no lookup (api-spec.md "Rules for writes" 1, 3; "Limits"): at
 * most 4 attachments on a short post, no inline images in a short post.
 */
function checkShape(title: string | null, tokens: string[], attachments: string[]): void {
  const details: ValidationDetail[] = [];
  if (!title && attachments.length > POST_LIMITS.shortPostAttachments) {
    details.push({
      path: 'attachments',
      message: `a short post has at most ${POST_LIMITS.shortPostAttachments} attachments`,
    });
  }
  if (!title && tokens.length > 0) {
    details.push({ path: 'body', message: 'short posts refuse inline images (attachment:// tokens)' });
  }
  if (details.length > 0) throw invalidRequest('Invalid request', details);
}

/** The listing's filters as the page statement takes them. */
function filtersOf(query: PostListingQuery): SpacePostFilters {
  return {
    format: query.format,
    publishedAfter: query.publishedAfter === undefined ? undefined : new Date(query.publishedAfter),
    publishedBefore: query.publishedBefore === undefined ? undefined : new Date(query.publishedBefore),
  };
}
