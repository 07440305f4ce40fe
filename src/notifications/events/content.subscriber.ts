import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { formatEntityId } from '../../common/ids/entity-id';
import { CommentAdded, CommentUpvoted } from '../../comments';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import {
  PostPinned,
  PostPublished,
  PostReadabilityService,
  PostUpvoted,
  type PostSubject,
} from '../../posts';
import { nameOf, withTitle } from '../domain/notification-titles';
import { NotificationAudience, StoredPerson } from '../entities/notification.entity';
import { PeopleNamesService } from '../services/people-names.service';
import { PostAnnouncementsSubscriber } from './post-announcements.subscriber';
import { NotificationWritesService } from '../services/notification-writes.service';

/** One content activity told to a few named people (the author of a post or comment). */
interface Telling {
  kind: string;
  post: PostSubject;
  audience: NotificationAudience;
  groupKey: string;
  /** Who acted: grouped (`identity`), shown as createdBy, never told. */
  actorDid: string;
  scopeType: 'post' | 'comment';
  previewId: string;
  /** Recipients by title; `adminsOnly` tells the space's admins instead. */
  recipients: { only?: string[]; adminsOnly?: boolean };
  title: (actor: string) => string;
}

/**
 * Content notifications (design.md §14) from committed post and comment events, never on rollback:
 * a published post is announced to its space by a background job (PostAnnouncementsSubscriber, recorded in
 * the post's transaction); pins, comments and upvotes tell a few people (the admins, the post's or comment's author) at once.
 * Only people who read the post now are told, never the person who acted (whose own post or
 * comment costs no statement at all).
 */
@Injectable()
export class ContentSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly audience: PostReadabilityService,
    private readonly writes: NotificationWritesService,
    private readonly names: PeopleNamesService,
    private readonly announcements: PostAnnouncementsSubscriber,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // Recorded with the post (the job outbox), queued after commit.
    this.events.withinTransaction(PostPublished, (event, manager) =>
      this.announcements.record(manager, event.postId),
    );
    this.events.afterCommit(PostPinned, (event) => this.pinned(event));
    this.events.afterCommit(CommentAdded, (event) => this.commented(event));
    this.events.afterCommit(PostUpvoted, (event) => this.postUpvoted(event));
    this.events.afterCommit(CommentUpvoted, (event) => this.commentUpvoted(event));
  }

  private async pinned(event: PostPinned): Promise<void> {
    const post = await this.audience.subject(event.postId);
    if (!post) return;
    await this.tell({
      kind: 'notify.post.pinned',
      post,
      audience: 'admins',
      groupKey: `notify.post.pinned:${post.spaceId}:${post.id}`,
      actorDid: event.byDid,
      scopeType: 'post',
      previewId: formatEntityId('post', post.id),
      recipients: { adminsOnly: true },
      title: (actor) => withTitle(`${actor} pinned a post`, post.displayTitle),
    });
  }

  /** To the post's author; on a reply also to the root comment's author. */
  private async commented(event: CommentAdded): Promise<void> {
    const told = [event.postAuthorDid, event.rootAuthorDid].filter((did) => did && did !== event.authorDid);
    if (event.postAuthorDid !== null && told.length === 0) return; // a comment under one's own post
    const post = await this.audience.subject(event.postId);
    if (!post) return;
    const base = {
      kind: 'notify.post.comment.added',
      post,
      audience: 'member' as const,
      groupKey: `notify.post.comment.added:${post.spaceId}:${post.id}`,
      actorDid: event.authorDid,
      scopeType: 'comment' as const,
      previewId: formatEntityId('comment', event.commentId),
    };
    await this.tell({
      ...base,
      recipients: { only: [post.authorDid] },
      title: (actor) => withTitle(`${actor} commented on your post`, post.displayTitle),
    });
    if (event.rootAuthorDid && event.rootAuthorDid !== post.authorDid) {
      await this.tell({
        ...base,
        recipients: { only: [event.rootAuthorDid] },
        title: (actor) => withTitle(`${actor} replied to your comment`, post.displayTitle),
      });
    }
  }

  private async postUpvoted(event: PostUpvoted): Promise<void> {
    if (event.authorDid === event.voterDid) return;
    const post = await this.audience.subject(event.postId);
    if (!post) return;
    await this.tell({
      kind: 'notify.post.reaction.added',
      post,
      audience: 'member',
      groupKey: `notify.post.reaction.added:${post.spaceId}:${post.id}`,
      actorDid: event.voterDid,
      scopeType: 'post',
      previewId: formatEntityId('post', post.id),
      recipients: { only: [post.authorDid] },
      title: (actor) => withTitle(`${actor} upvoted your post`, post.displayTitle),
    });
  }

  private async commentUpvoted(event: CommentUpvoted): Promise<void> {
    if (event.authorDid === event.voterDid) return;
    const post = await this.audience.subject(event.postId);
    if (!post) return;
    await this.tell({
      kind: 'notify.comment.reaction.added',
      post,
      audience: 'member',
      groupKey: `notify.comment.reaction.added:${post.spaceId}:${event.commentId}`,
      actorDid: event.voterDid,
      scopeType: 'comment',
      previewId: formatEntityId('comment', event.commentId),
      recipients: { only: [event.authorDid] },
      title: (actor) => withTitle(`${actor} upvoted your comment`, post.displayTitle),
    });
  }

  private async tell(telling: Telling): Promise<void> {
    // Nobody is told of their own act: when that leaves nobody named, there is nothing to look up.
    const { only } = telling.recipients;
    if (only && only.every((did) => did === telling.actorDid)) return;
    const recipients = await this.audience.readers(telling.post, {
      ...telling.recipients,
      except: telling.actorDid,
      limit: 10_000,
    });
    if (recipients.length === 0) return;
    const actor: StoredPerson = (await this.names.of([telling.actorDid]))(telling.actorDid);
    const now = this.clock.now();
    await this.writes.write(recipients, {
      kind: telling.kind,
      spaceId: telling.post.spaceId,
      audience: telling.audience,
      groupKey: telling.groupKey,
      scope: {
        type: telling.scopeType,
        preview: {
          id: telling.previewId,
          title: telling.title(nameOf(actor)),
          createdBy: actor,
          createdAt: now.toISOString(),
        },
      },
      aggregationType: 'identity',
      item: actor,
      postId: telling.post.id,
      at: now,
    });
  }
}
