import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { notFound } from '../../common/errors/api-error';
import { formatEntityId, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetOptions, openKeysetPage } from '../../common/pagination/keyset';
import { PostReadabilityService } from '../../posts';
import { SpaceDirectoryService } from '../../spaces';
import { planOf, SpaceEvent } from '../domain/notification-kinds';
import { namedPosts, nameOf } from '../domain/notification-titles';
import {
  MarkAllReadResult,
  NotificationPage,
  NotificationRecord,
  NotificationsQuery,
  NotificationStatusRecord,
  SpaceNotificationCounts,
} from '../dto/notification-records.dto';
import { NotificationsRepository, VisibleNotification } from '../notifications.repository';
import { NotificationPresenter } from './notification.presenter';
import { PeopleNamesService } from './people-names.service';
import { NotificationWritesService } from './notification-writes.service';

/**
 * The caller's notifications (visible while the recipient still sees what they are about:
 * NotificationsRepository), and the recording of membership and application events.
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly notifications: NotificationsRepository,
    private readonly writes: NotificationWritesService,
    private readonly presenter: NotificationPresenter,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly spaces: SpaceDirectoryService,
    private readonly names: PeopleNamesService,
    private readonly posts: PostReadabilityService,
  ) {}

  /**
   * Turns one committed space event into notifications for its audience (see
   * NotificationsRepository.write for the grouping), naming people by display name or handle.
   */
  async record(event: SpaceEvent): Promise<void> {
    const plan = planOf(event);
    const recipients = await this.recipientsOf(
      event.spaceId,
      plan.audience,
      plan.recipientDid,
      plan.actorNotified ? '' : plan.actor,
    );
    if (recipients.length === 0) return;
    const personOf = await this.names.of([plan.person, plan.actor]);
    const now = this.clock.now();
    await this.writes.write(recipients, {
      kind: event.kind,
      spaceId: event.spaceId,
      audience: plan.audience,
      groupKey: `${event.kind}:${event.spaceId}`,
      scope: {
        type: plan.scopeType,
        preview: {
          id: plan.previewId,
          title: plan.title((did) => nameOf(personOf(did))),
          createdBy: personOf(plan.actor),
          createdAt: now.toISOString(),
        },
      },
      aggregationType: 'identity',
      item: personOf(plan.person),
      postId: null,
      at: now,
    });
  }

  /** The caller's visible notifications, most recent activity first (keyset), with their count. */
  async list(did: string, query: NotificationsQuery): Promise<NotificationPage> {
    const spaceDid = query.spaceDID ?? null;
    const totalCount = await this.notifications.visibleCount(did, spaceDid);
    const keyset: KeysetOptions<VisibleNotification> = {
      listing: 'notifications',
      columns: [
        { expression: 'last_activity_at', direction: 'DESC' },
        { expression: 'id', direction: 'DESC' },
      ],
      keyOf: ({ notification }) => [notification.lastActivityAt.toISOString(), notification.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.notifications.visiblePage(did, spaceDid, seek), keyset);
    const readable = await this.readablePosts(did, page.rows);
    return {
      items: page.rows.map((row) => this.presenter.record(row, readable)),
      totalCount,
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  async status(did: string): Promise<NotificationStatusRecord> {
    const latest = await this.notifications.latest(did);
    const unread = await this.notifications.unreadCount(did);
    return {
      lastActivityAt: latest ? latest.last_activity_at.toISOString() : null,
      lastNotificationId: latest ? formatEntityId('notification', latest.id) : null,
      unreadCount: unread,
    };
  }

  /** Marks one of the caller's visible notifications read; reading it again changes nothing. */
  async markRead(did: string, wireId: string): Promise<NotificationRecord> {
    const id = parseEntityId('notification', wireId);
    if (!id) throw notFound();
    const found = await this.notifications.visibleById(did, id);
    if (!found) throw notFound();
    const { notification } = found;
    if (notification.readState === 'unread') {
      const now = this.clock.now();
      await this.notifications.markRead(id, now);
      notification.readState = 'read';
      notification.lastReadAt = now;
    }
    return this.presenter.record(found, await this.readablePosts(did, [found]));
  }

  /** Marks every unread visible notification of the caller read, or only those of one space. */
  async markAllRead(did: string, spaceDid: string | undefined): Promise<MarkAllReadResult> {
    return { markedCount: await this.notifications.markAllRead(did, spaceDid ?? null, this.clock.now()) };
  }

  /** Spaces with unread notifications of the caller, most recently notified first. */
  async spaceCounts(did: string): Promise<SpaceNotificationCounts> {
    const rows = await this.notifications.spaceCounts(did);
    return {
      items: rows.map((row) => ({
        space: { id: formatEntityId('space', row.id), did: row.did, displayName: row.display_name },
        unreadCount: row.unread,
        lastNotifiedAt: row.last.toISOString(),
      })),
      totalUnreadCount: rows.reduce((sum, row) => sum + row.unread, 0),
    };
  }

  /** The posts named by these notifications' aggregations that `did` reads now (one statement). */
  private readablePosts(did: string, rows: VisibleNotification[]): Promise<Set<string>> {
    return this.posts.readableByMember(did, namedPosts(rows.map((row) => row.notification)));
  }

  private async recipientsOf(
    spaceId: string,
    audience: string,
    recipientDid: string | null,
    actorDid: string,
  ): Promise<string[]> {
    if (recipientDid) return recipientDid === actorDid ? [] : [recipientDid];
    return this.spaces.activeMemberDids(spaceId, { adminsOnly: audience === 'admins', except: actorDid });
  }
}
