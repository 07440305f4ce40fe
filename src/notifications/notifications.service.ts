import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository, SelectQueryBuilder } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { notFound } from '../common/errors/api-error';
import { formatEntityId, parseEntityId } from '../common/ids/entity-id';
import { CursorCodec } from '../common/pagination/cursor-codec';
import { paginateKeyset } from '../common/pagination/keyset';
import {
  MarkAllReadResult,
  NotificationPage,
  NotificationRecord,
  NotificationsQuery,
  NotificationStatusRecord,
  SpaceNotificationCounts,
} from './dto/notification-records.dto';
import { PostReadability } from '../posts';
import { SpaceDirectory } from '../spaces';
import { nameOf, PeopleNames } from './people-names';
import { namedPosts, shownItems } from './notification-titles';
import { NotificationWriter } from './notification-writer';
import { readsPost } from './content-audience';
import { Notification } from './entities/notification.entity';
import { planOf, SpaceEvent } from './notification-kinds';

/** People shown in an aggregation (the most recent ones); `totalCount` counts them all. */
export const AGGREGATION_SAMPLE = 5;

/**
 * A notification is visible while its recipient still sees what it is about: the space is live
 * and the recipient an active member (an admin, for the admins-only kinds); an applicant's
 * decision stays visible to the applicant unless banned. Everything else is hidden (and 404).
 */
const VISIBLE = `(
  (m.status = 'active' AND (n.audience <> 'admins' OR m.role IN ('owner', 'admin')))
  OR (n.audience = 'applicant' AND (m.status IS NULL OR m.status <> 'banned'))
) AND (n.post_id IS NULL OR ${readsPost('n.post_id', 'n.recipient_did', 'm.role')})`;

/**
 * Raw-SQL form: the visible notifications of `$1`. Spaces and standings come from the views the
 * spaces module exposes for such joins (`live_spaces`, `space_member_standings`), never its tables.
 */
const VISIBLE_FROM = `
  FROM notifications n
  JOIN live_spaces s ON s.id = n.space_id
  LEFT JOIN space_member_standings m ON m.space_id = n.space_id AND m.member_did = n.recipient_did
  WHERE n.recipient_did = $1 AND ${VISIBLE}`;

/** A visible notification with the space it is about. */
interface VisibleNotification {
  notification: Notification;
  space: { id: string; did: string; displayName: string | null };
}

@Injectable()
export class NotificationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Notification) private readonly notifications: Repository<Notification>,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly spaces: SpaceDirectory,
    private readonly names: PeopleNames,
    private readonly writer: NotificationWriter,
    private readonly posts: PostReadability,
  ) {}

  /**
   * Turns one committed space event into notifications for its audience (see NotificationWriter
   * for the grouping), naming people by display name or handle.
   */
  async record(event: SpaceEvent): Promise<void> {
    const plan = planOf(event);
    const recipients = await this.recipientsOf(event.spaceId, plan.audience, plan.recipientDid, plan.actor);
    if (recipients.length === 0) return;
    const personOf = await this.names.of([plan.person, plan.actor]);
    const now = this.clock.now();
    await this.writer.write(recipients, {
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
    const builder = this.visible(did);
    if (query.spaceDID) builder.andWhere('s.did = :spaceDid', { spaceDid: query.spaceDID });
    const totalCount = await builder.clone().getCount();
    const page = await paginateKeyset(
      builder,
      {
        listing: 'notifications',
        columns: [
          { expression: 'n.lastActivityAt', direction: 'DESC' },
          { expression: 'n.id', direction: 'DESC' },
        ],
        keyOf: ({ notification }: VisibleNotification) => [
          notification.lastActivityAt.toISOString(),
          notification.id,
        ],
        page: query,
        cursors: this.cursors,
      },
      readVisible,
    );
    const readable = await this.readablePosts(did, page.rows);
    return {
      items: page.rows.map((row) => toNotificationRecord(row, readable)),
      totalCount,
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  async status(did: string): Promise<NotificationStatusRecord> {
    const [latest] = (await this.dataSource.query(
      `SELECT n.id, n.last_activity_at ${VISIBLE_FROM} ORDER BY n.last_activity_at DESC, n.id DESC LIMIT 1`,
      [did],
    )) as { id: string; last_activity_at: Date }[];
    const [{ unread }] = (await this.dataSource.query(
      `SELECT count(*)::int AS unread ${VISIBLE_FROM} AND n.read_state = 'unread'`,
      [did],
    )) as { unread: number }[];
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
    const [found] = await readVisible(this.visible(did).andWhere('n.id = :id', { id }));
    if (!found) throw notFound();
    const { notification } = found;
    if (notification.readState === 'unread') {
      const now = this.clock.now();
      await this.notifications.update({ id, readState: 'unread' }, { readState: 'read', lastReadAt: now });
      notification.readState = 'read';
      notification.lastReadAt = now;
    }
    return toNotificationRecord(found, await this.readablePosts(did, [found]));
  }

  /** Marks every unread visible notification of the caller read, or only those of one space. */
  async markAllRead(did: string, spaceDid: string | undefined): Promise<MarkAllReadResult> {
    const rows = (await this.dataSource.query(
      `UPDATE notifications SET read_state = 'read', last_read_at = $3
        WHERE id IN (SELECT n.id ${VISIBLE_FROM} AND n.read_state = 'unread' AND ($2::varchar IS NULL OR s.did = $2))
        RETURNING id`,
      [did, spaceDid ?? null, this.clock.now()],
    )) as [unknown[], number];
    return { markedCount: rows[1] };
  }

  /** Spaces with unread notifications of the caller, most recently notified first. */
  async spaceCounts(did: string): Promise<SpaceNotificationCounts> {
    const rows = (await this.dataSource.query(
      `SELECT s.id, s.did, s.display_name,
              count(*) FILTER (WHERE n.read_state = 'unread')::int AS unread,
              max(n.last_activity_at) AS last
         ${VISIBLE_FROM}
        GROUP BY s.id, s.did, s.display_name
       HAVING count(*) FILTER (WHERE n.read_state = 'unread') > 0
        ORDER BY last DESC, s.id DESC`,
      [did],
    )) as { id: string; did: string; display_name: string | null; unread: number; last: Date }[];
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

  private visible(did: string): SelectQueryBuilder<Notification> {
    return this.notifications
      .createQueryBuilder('n')
      .innerJoin('live_spaces', 's', 's.id = n.space_id')
      .addSelect(['s.did AS space_did', 's.display_name AS space_display_name'])
      .leftJoin('space_member_standings', 'm', 'm.space_id = n.space_id AND m.member_did = n.recipient_did')
      .where('n.recipientDid = :did', { did })
      .andWhere(VISIBLE);
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

/** Reads visible notifications with their spaces (one row each: nothing joined is a collection). */
async function readVisible(query: SelectQueryBuilder<Notification>): Promise<VisibleNotification[]> {
  const { entities, raw } = await query.getRawAndEntities<{
    space_did: string;
    space_display_name: string | null;
  }>();
  return entities.map((notification, index) => ({
    notification,
    space: {
      id: notification.spaceId,
      did: raw[index].space_did,
      displayName: raw[index].space_display_name,
    },
  }));
}

/** The record of a visible notification; `readable`: the posts its recipient reads now. */
export function toNotificationRecord(
  { notification: row, space }: VisibleNotification,
  readable: ReadonlySet<string>,
): NotificationRecord {
  return {
    id: formatEntityId('notification', row.id),
    type: row.type,
    space: { id: formatEntityId('space', space.id), did: space.did, displayName: space.displayName },
    readState: row.readState,
    scope: row.scope,
    aggregation:
      Math.max(row.itemCount, row.people.length) > 1
        ? {
            type: row.aggregationType,
            items: shownItems(row, readable).slice(0, AGGREGATION_SAMPLE),
            totalCount: Math.max(row.itemCount, row.people.length),
          }
        : null,
    firstActivityAt: row.firstActivityAt.toISOString(),
    lastActivityAt: row.lastActivityAt.toISOString(),
    lastReadAt: row.lastReadAt ? row.lastReadAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}
