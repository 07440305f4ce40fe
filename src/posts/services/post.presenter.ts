import { Injectable } from '@nestjs/common';
import { formatEntityId, parseEntityId } from '../../common/ids/entity-id';
import { LinkPreviewsService, LinkPreviewView } from '../../link-previews';
import { attachmentTokensOf, MediaLookupService } from '../../media';
import { SpaceDirectoryService, SpaceView, TopicView } from '../../spaces';
import { AuthorDirectoryService, AuthorRecord } from '../../users';
import { cardTextOf } from '../domain/post-card-text';
import { applyFold, bareUrlsOf } from '../domain/post-text';
import { FullPost, LinkCardRecord, PostCard, SpaceCallToAction } from '../dto/post-records.dto';
import { Post } from '../entities/post.entity';
import { ReaderCard } from '../repositories/post-cards.repository';
import { PostsRepository } from '../repositories/posts.repository';
import { EntityLinksService } from './entity-links.service';

/**
 * Maps posts to the wire (api-spec.md "Post card", "Full post", "SpaceView call-to-action"). A page of
 * cards costs one query for its authors and, on a member projection, one for the viewer's upvotes.
 */
@Injectable()
export class PostPresenter {
  constructor(
    private readonly authors: AuthorDirectoryService,
    private readonly directory: SpaceDirectoryService,
    private readonly entityLinks: EntityLinksService,
    private readonly posts: PostsRepository,
    private readonly media: MediaLookupService,
    private readonly previews: LinkPreviewsService,
  ) {}

  /** Cards of a page; `viewerDid` (member projection) adds `viewer` to every card. */
  async cards(
    posts: Post[],
    spaceOf: (post: Post) => SpaceView,
    viewerDid: string | null,
  ): Promise<PostCard[]> {
    const [authors, upvoted] = await Promise.all([
      this.authors.authorsOf(posts.map((post) => post.authorDid)),
      viewerDid ? this.upvotedBy(viewerDid, posts) : Promise.resolve(null),
    ]);
    return posts.map((post) =>
      this.card(
        post,
        spaceOf(post),
        authors.get(post.authorDid) ?? null,
        upvoted ? upvoted.has(post.id) : null,
      ),
    );
  }

  /**
   * Cards read for a reader across spaces (PostCardsRepository.forReader): `viewer` on the cards of
   * spaces where the reader is an active member (the member projection), as the listing does. One
   * more query for their authors.
   */
  async readerCards(cards: ReaderCard[]): Promise<PostCard[]> {
    const authors = await this.authors.authorsOf(cards.map(({ post }) => post.authorDid));
    return cards.map(({ post, spaceDomain, member, upvoted }) =>
      this.card(post, { domain: spaceDomain }, authors.get(post.authorDid) ?? null, member ? upvoted : null),
    );
  }

  /**
   * The full post as read by this viewer (null: the anonymous projection, no `viewer`). `known`
   * spares the lookups the caller can answer (a post created a moment ago: not upvoted, and the
   * author record its insert read). Link cards carry what `link-previews` knows of their URLs,
   * read in one batch, the same for every viewer; a write's answer (`known.unresolvedLinks`) shows
   * them unresolved, as its resolution is queued after it
   * (docs/decisions/0156-link-cards-read-in-one-batch.md).
   */
  async full(
    post: Post,
    space: SpaceView,
    topic: TopicView,
    viewerDid: string | null,
    known: {
      upvoted?: boolean;
      author?: AuthorRecord;
      authorAvatarId?: string | null;
      unresolvedLinks?: true;
    } = {},
  ): Promise<FullPost> {
    const [author, upvoted] = await Promise.all([
      known.author ?? this.authors.authorsOf([post.authorDid]).then((authors) => authors.get(post.authorDid)),
      viewerDid && known.upvoted === undefined ? this.upvotedBy(viewerDid, [post]) : Promise.resolve(null),
    ]);
    const card = this.card(
      post,
      space,
      author ?? null,
      viewerDid === null ? null : (known.upvoted ?? upvoted!.has(post.id)),
    );
    const { body, folded } = applyFold(post.body);
    const urls = bareUrlsOf(body);
    // Inline media of the returned body only: a token below the fold is not shown (api-spec.md).
    const inline = attachmentTokensOf(body).map((mediaId) => parseEntityId('media', mediaId)!);
    const [entityLinks, media, previews] = await Promise.all([
      this.entityLinks.resolve(body),
      this.media.objects([...post.attachmentIds, ...inline, known.authorAvatarId]),
      urls.length > 0 && !known.unresolvedLinks ? this.previews.previewsOf(urls) : null,
    ]);
    const links = urls.map((url, sortOrder) => linkCardOf(url, sortOrder, previews?.get(url)));
    // A known author's avatar came with the post's media (same query).
    const avatar = known.authorAvatarId ? media.get(known.authorAvatarId) : undefined;
    if (card.author && avatar && avatar.urlExpiresAt === undefined)
      card.author = { ...card.author, avatarUrl: avatar.url };
    return {
      ...card,
      body,
      attachments: post.attachmentIds.flatMap((id) => media.get(id) ?? []),
      bodyMedia: inline.flatMap((id) => media.get(id) ?? []),
      topics: [{ id: formatEntityId('topic', topic.id), name: topic.name }],
      ...(folded ? { folded: true } : {}),
      ...(links.length > 0 ? { links } : {}),
      ...(entityLinks.length > 0 ? { entityLinks } : {}),
    };
  }

  /** api-spec.md "Space call-to-action": the avatar a permanent public URL (one query when set). */
  async callToAction(space: SpaceView): Promise<SpaceCallToAction> {
    const avatars = await this.media.imageUrls([space.avatarMediaId]);
    return {
      displayName: space.displayName,
      description: space.description,
      avatarUrl: (space.avatarMediaId && avatars.get(space.avatarMediaId)) || null,
      domain: space.domain,
      joinMode: space.joinMode,
      subscribeEnabled: space.subscribeEnabled,
      memberCountSummary: this.directory.memberCountSummary(space),
    };
  }

  /** The public permalink: the space's public web address plus `/post/{slug}-{id}`. */
  canonicalUri(space: Pick<SpaceView, 'domain'>, post: Pick<Post, 'id' | 'slug'>): string {
    return `${this.directory.publicUrl(space)}/post/${post.slug}-${formatEntityId('post', post.id)}`;
  }

  private card(
    post: Post,
    space: Pick<SpaceView, 'domain'>,
    author: AuthorRecord | null,
    upvoted: boolean | null,
  ): PostCard {
    return {
      id: formatEntityId('post', post.id),
      slug: post.slug,
      format: post.title ? 'long-post' : 'short-post',
      title: post.title,
      ...cardTextOf(post),
      author,
      upvoteCount: Math.max(0, post.upvoteCount),
      commentCount: Math.max(0, post.commentCount),
      isPinned: post.isPinned,
      publishedAt: post.publishedAt.toISOString(),
      updatedAt: post.updatedAt.toISOString(),
      canonicalUri: this.canonicalUri(space, post),
      ...(post.contentId && post.headCid
        ? { protocol: { contentId: post.contentId, headOpCid: post.headCid } }
        : {}),
      ...(upvoted === null ? {} : { viewer: { upvoted } }),
    };
  }

  private async upvotedBy(did: string, posts: Post[]): Promise<Set<string>> {
    if (posts.length === 0) return new Set();
    return this.posts.upvotedBy(
      did,
      posts.map((post) => post.id),
    );
  }
}

/** A link card (api-spec.md "Full post"): null metadata until resolved; image and favicon only when cached. */
function linkCardOf(url: string, sortOrder: number, preview: LinkPreviewView | undefined): LinkCardRecord {
  return {
    url,
    title: preview?.title ?? null,
    description: preview?.description ?? null,
    siteName: preview?.siteName ?? null,
    sortOrder,
    ...(preview?.imageUrl ? { imageUrl: preview.imageUrl } : {}),
    ...(preview?.faviconUrl ? { faviconUrl: preview.faviconUrl } : {}),
  };
}
