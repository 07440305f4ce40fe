import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { newUuid } from '../common/ids/entity-id';
import { defineStatements } from '../infrastructure/database/statements';
import { memberReadsPost } from '../posts';
import {
  Notification,
  NotificationAudience,
  StoredPerson,
  StoredPost,
  StoredScope,
} from './entities/notification.entity';
import { affectedRows, ErasedRows } from '../common/erasure/erased-rows';

/** The key an item is counted once by: a post's id, a person's DID. */
const ITEM_KEY = `COALESCE(EXCLUDED.people->0->>'id', EXCLUDED.people->0->>'did')`;

/** Posts a `post` group keeps (the most recent; `item_count` counts them all). */
export const POST_SAMPLE = 5;

/**
 * People an `identity` group keeps (the most recent; the record shows 5 of them, `item_count`
 * counts them all): bounded, so join/leave loops of fresh identities cannot grow a row without end.
 * A person is counted once while among them (docs/decisions/
 * 0100-bounded-notification-people.md).
 */
export const PEOPLE_KEPT = 20;

/**
 * A notification is visible while its recipient still sees what it is about: the space is live
 * and the recipient an active member (an admin, for the admins-only kinds); an applicant's
 * decision stays visible to the applicant unless banned; a content notification while its
 * recipient reads the post (the posts module's rule,
 * docs/decisions/0134-who-reads-a-post-is-one-rule.md). Everything else is hidden (and 404).
 * Spaces and standings come from the views the spaces module exposes for such joins
 * (`live_spaces`, `space_member_standings`), never its tables. $1: the recipient.
 */
const VISIBLE_FROM = `
  FROM notifications n
  JOIN live_spaces s ON s.id = n.space_id
  LEFT JOIN space_member_standings m ON m.space_id = n.space_id AND m.member_did = n.recipient_did
  WHERE n.recipient_did = $1 AND (
  (m.status = 'active' AND (n.audience <> 'admins' OR m.role IN ('owner', 'admin')))
  OR (n.audience = 'applicant' AND (m.status IS NULL OR m.status <> 'banned'))
) AND (n.post_id IS NULL OR ${memberReadsPost('n.post_id', 'n.recipient_did', 'm.role')})`;

/** A notification's columns and its space's, read as a VisibleRow. */
const VISIBLE_COLUMNS = `SELECT n.id, n.recipient_did, n.type, n.space_id, n.audience, n.group_key, n.scope,
  n.aggregation_type, n.people, n.item_count, n.post_id, n.read_state, n.first_activity_at, n.last_activity_at,
  n.last_read_at, n.created_at, s.did AS space_did, s.display_name AS space_display_name`;

/**
 * A page of the visible notifications of $1, of the space with DID $2 only (NULL: all, as
 * docs/decisions/0135-optional-filters-as-null-parameters.md has it), $3 rows
 * in `order` by (last_activity_at, id), past the keyset ($4, $5) when `seeking`.
 */
const VISIBLE_PAGE = (order: 'ASC' | 'DESC', seeking: boolean) =>
  `${VISIBLE_COLUMNS} ${VISIBLE_FROM} AND ($2::varchar IS NULL OR s.did = $2)` +
  (seeking ? ` AND (n.last_activity_at, n.id) ${order === 'ASC' ? '>' : '<'} ($4, $5)` : '') +
  ` ORDER BY n.last_activity_at ${order}, n.id ${order} LIMIT $3`;

/** The notifications module's statements (docs/decisions/0131-a-repository-per-module.md). */
/** What a notification's export holds. */
const EXPORTED_NOTIFICATION_COLUMNS =
  'id, type, space_id, audience, scope, aggregation_type, people, item_count, read_state, ' +
  'first_activity_at, last_activity_at, last_read_at, created_at';

/** A row of `exportPage`. */
export interface ExportedNotificationRow {
  id: string;
  type: string;
  space_id: string | null;
  audience: string;
  scope: unknown;
  aggregation_type: string | null;
  people: unknown[];
  item_count: number;
  read_state: string;
  first_activity_at: Date;
  last_activity_at: Date;
  last_read_at: Date | null;
  created_at: Date;
}

export const NOTIFICATIONS_STATEMENTS = defineStatements('NotificationsRepository', {
  /**
   * A page of the notifications to a person ($1), oldest activity first on
   * `idx_notifications_recipient_activity` ($2 rows; `after`: $3, $4 the last (last_activity_at, id);
   * docs/decisions/0210-personal-export-archive-layout.md).
   */
  exportPage: {
    first: `SELECT ${EXPORTED_NOTIFICATION_COLUMNS} FROM notifications WHERE recipient_did = $1
      ORDER BY last_activity_at, id LIMIT $2`,
    after: `SELECT ${EXPORTED_NOTIFICATION_COLUMNS} FROM notifications WHERE recipient_did = $1
      AND (last_activity_at, id) > ($3::timestamptz, $4::uuid) ORDER BY last_activity_at, id LIMIT $2`,
  },
  /**
   * A new row per recipient, or, while the recipient's notification of the same group is unread,
   * an update of it: the item goes to the front, the same item further back is dropped, and the
   * group keeps its POST_SAMPLE posts or PEOPLE_KEPT people. $1 ids, $2 recipient DIDs, $3 kind,
   * $4 space, $5 audience, $6 group key, $7 scope, $8 item, $9 time, $10 aggregation type, $11 post.
   */
  write: `INSERT INTO notifications AS n (id, recipient_did, type, space_id, audience, group_key, scope,
         aggregation_type, people, item_count, post_id, read_state, first_activity_at, last_activity_at,
         last_read_at, created_at)
       SELECT r.id, r.did, $3, $4, $5, $6, $7::jsonb, $10, jsonb_build_array($8::jsonb), 1, $11, 'unread', $9, $9,
         NULL, $9
       FROM unnest($1::uuid[], $2::varchar[]) AS r(id, did)
       ON CONFLICT (recipient_did, group_key) WHERE read_state = 'unread' DO UPDATE SET
         scope = EXCLUDED.scope,
         post_id = EXCLUDED.post_id,
         people = EXCLUDED.people || COALESCE(
           (SELECT jsonb_agg(kept.value ORDER BY kept.ord)
              FROM (SELECT p.value, row_number() OVER (ORDER BY p.ord) AS ord
                      FROM jsonb_array_elements(n.people) WITH ORDINALITY AS p(value, ord)
                     WHERE COALESCE(p.value->>'id', p.value->>'did') <> ${ITEM_KEY}) AS kept
             WHERE kept.ord < CASE WHEN n.aggregation_type = 'post' THEN ${POST_SAMPLE} ELSE ${PEOPLE_KEPT} END),
           '[]'::jsonb),
         item_count = n.item_count + CASE WHEN EXISTS (
             SELECT 1 FROM jsonb_array_elements(n.people) AS p(value)
              WHERE COALESCE(p.value->>'id', p.value->>'did') = ${ITEM_KEY}) THEN 0 ELSE 1 END,
         last_activity_at = GREATEST(n.last_activity_at, EXCLUDED.last_activity_at)
       RETURNING n.id, n.recipient_did`,
  visiblePage: {
    first: VISIBLE_PAGE('DESC', false),
    after: VISIBLE_PAGE('DESC', true),
    /** A `before` cursor: read backward, the page reversed after. */
    before: VISIBLE_PAGE('ASC', true),
  },
  /**
   * The visible notifications of $1 whose activity is past ($2, $3) (last activity, id), oldest
   * first, $4 at most: what a stream resumed with `Last-Event-ID` missed
   * (docs/decisions/0171-stream-resume-from-the-notifications-table.md).
   */
  visibleSince: `${VISIBLE_COLUMNS} ${VISIBLE_FROM} AND (n.last_activity_at, n.id) > ($2::timestamptz, $3::uuid)
        ORDER BY n.last_activity_at ASC, n.id ASC LIMIT $4`,
  /** How many notifications of $1 are visible, of the space with DID $2 only (NULL: all). */
  visibleCount: `SELECT count(*)::int AS n ${VISIBLE_FROM} AND ($2::varchar IS NULL OR s.did = $2)`,
  /** One visible notification of $1 by id ($2). */
  visibleById: `${VISIBLE_COLUMNS} ${VISIBLE_FROM} AND n.id = $2`,
  latest: `SELECT n.id, n.last_activity_at ${VISIBLE_FROM} ORDER BY n.last_activity_at DESC, n.id DESC LIMIT 1`,
  unreadCount: `SELECT count(*)::int AS unread ${VISIBLE_FROM} AND n.read_state = 'unread'`,
  /** Marks every unread visible notification of $1 read at $3, or those of the space with DID $2. */
  markAllRead: `UPDATE notifications SET read_state = 'read', last_read_at = $3
        WHERE id IN (SELECT n.id ${VISIBLE_FROM} AND n.read_state = 'unread' AND ($2::varchar IS NULL OR s.did = $2))
        RETURNING id`,
  /** Spaces with unread notifications of $1, most recently notified first. */
  spaceCounts: `SELECT s.id, s.did, s.display_name,
              count(*) FILTER (WHERE n.read_state = 'unread')::int AS unread,
              max(n.last_activity_at) AS last
         ${VISIBLE_FROM}
        GROUP BY s.id, s.did, s.display_name
       HAVING count(*) FILTER (WHERE n.read_state = 'unread') > 0
        ORDER BY last DESC, s.id DESC`,
  /**
   * The active members of a space but one, in DID order, after a DID ($1 space, $2 the joiner,
   * $3 keyset DID or null, $4 limit): on the view the spaces module publishes.
   */
  membersAfter: `SELECT member_did AS did FROM active_space_members
  WHERE space_id = $1 AND member_did <> $2 AND ($3::varchar IS NULL OR member_did > $3)
  ORDER BY member_did LIMIT $4`,
  fanout: {
    /** The fan-out $1, unless it exists. */
    begin: 'INSERT INTO notification_fanouts (key) VALUES ($1) ON CONFLICT (key) DO NOTHING',
    /** How far the fan-out $1 came, locked for its next batch. */
    progress: 'SELECT after_did, done_at FROM notification_fanouts WHERE key = $1 FOR UPDATE',
    /** The fan-out $1 came to the recipient $2, and is done at $3 (NULL: not yet). */
    advance: 'UPDATE notification_fanouts SET after_did = $2, done_at = $3 WHERE key = $1',
  },
  /**
   * Erasure of a person ($1) (docs/decisions/0196-what-an-erasure-removes-and-keeps.md): the
   * notifications to them, and every one that names them (as one of its people, as the author of
   * one of its posts, or in its scope's preview).
   */
  eraseAbout:
    'DELETE FROM notifications WHERE recipient_did = $1 ' +
    "OR people @> jsonb_build_array(jsonb_build_object('did', $1::text)) " +
    "OR people @> jsonb_build_array(jsonb_build_object('createdBy', jsonb_build_object('did', $1::text))) " +
    "OR scope @> jsonb_build_object('preview', jsonb_build_object('createdBy', jsonb_build_object('did', $1::text)))",
  /**
   * Finished fan-outs no longer name the person ($1): as where one stopped (a finished one never
   * resumes) or in its key (a join announced); unfinished ones still need theirs to resume.
   */
  forgetFinishedFanoutsOf:
    'UPDATE notification_fanouts SET after_did = NULL WHERE after_did = $1 AND done_at IS NOT NULL',
  eraseFinishedFanoutsOf:
    'DELETE FROM notification_fanouts WHERE done_at IS NOT NULL AND strpos(key, $1) > 0',
});

/** One activity as its recipients' notifications record it. */
export interface NotificationDraft {
  kind: string;
  spaceId: string;
  audience: NotificationAudience;
  /** Unread notifications of one recipient and group key aggregate. */
  groupKey: string;
  scope: StoredScope;
  aggregationType: 'identity' | 'post';
  /** The person (identity) or post (post) this activity adds to the group. */
  item: StoredPerson | StoredPost;
  /** The post the notification is about (content kinds), else null. */
  postId: string | null;
  at: Date;
}

/** A row a write inserted or updated (an aggregation), and whose it is. */
export interface WrittenNotification {
  id: string;
  recipientDid: string;
}

/** A visible notification with the space it is about. */
export interface VisibleNotification {
  notification: Notification;
  space: { id: string; did: string; displayName: string | null };
}

interface VisibleRow {
  id: string;
  recipient_did: string;
  type: string;
  space_id: string;
  audience: NotificationAudience;
  group_key: string;
  scope: StoredScope;
  aggregation_type: 'identity' | 'post';
  people: (StoredPerson | StoredPost)[];
  item_count: number;
  post_id: string | null;
  read_state: 'unread' | 'read';
  first_activity_at: Date;
  last_activity_at: Date;
  last_read_at: Date | null;
  created_at: Date;
  space_did: string;
  space_display_name: string | null;
}

function visibleOfRow(row: VisibleRow): VisibleNotification {
  const notification = new Notification();
  notification.id = row.id;
  notification.recipientDid = row.recipient_did;
  notification.type = row.type;
  notification.spaceId = row.space_id;
  notification.audience = row.audience;
  notification.groupKey = row.group_key;
  notification.scope = row.scope;
  notification.aggregationType = row.aggregation_type;
  notification.people = row.people;
  notification.itemCount = row.item_count;
  notification.postId = row.post_id;
  notification.readState = row.read_state;
  notification.firstActivityAt = row.first_activity_at;
  notification.lastActivityAt = row.last_activity_at;
  notification.lastReadAt = row.last_read_at;
  notification.createdAt = row.created_at;
  return {
    notification,
    space: { id: row.space_id, did: row.space_did, displayName: row.space_display_name },
  };
}

/** Where a page of notifications starts and which way it reads (KeysetSeek). */
export interface NotificationSeek {
  values: (string | number | boolean | null)[] | null;
  backward: boolean;
  take: number;
}

/** Every statement on `notifications` and `notification_fanouts`. */
@Injectable()
export class NotificationsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Notification) private readonly notifications: Repository<Notification>,
  ) {}

  /** A page of the notifications to `did`, by (last_activity_at, id) after `after`. */
  exportPage(
    did: string,
    after: [string, string] | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<ExportedNotificationRow[]> {
    const { exportPage } = NOTIFICATIONS_STATEMENTS;
    return after
      ? runner.query<ExportedNotificationRow[]>(exportPage.after, [did, limit, after[0], after[1]])
      : runner.query<ExportedNotificationRow[]>(exportPage.first, [did, limit]);
  }

  async eraseAbout(did: string, runner: EntityManager): Promise<ErasedRows> {
    const notifications = affectedRows(await runner.query(NOTIFICATIONS_STATEMENTS.eraseAbout, [did]));
    const forgotten = affectedRows(
      await runner.query(NOTIFICATIONS_STATEMENTS.forgetFinishedFanoutsOf, [did]),
    );
    const fanouts = affectedRows(await runner.query(NOTIFICATIONS_STATEMENTS.eraseFinishedFanoutsOf, [did]));
    return { notifications, notification_fanouts: forgotten + fanouts };
  }

  /**
   * Writes one activity for many recipients in one statement (concurrency-safe: `ON CONFLICT` on
   * the unread group index); none for no recipient.
   */
  async write(
    recipients: string[],
    draft: NotificationDraft,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<WrittenNotification[]> {
    if (recipients.length === 0) return [];
    const rows = await runner.query<{ id: string; recipient_did: string }[]>(NOTIFICATIONS_STATEMENTS.write, [
      recipients.map(() => newUuid()),
      recipients,
      draft.kind,
      draft.spaceId,
      draft.audience,
      draft.groupKey,
      JSON.stringify(draft.scope),
      JSON.stringify(draft.item),
      draft.at,
      draft.aggregationType,
      draft.postId,
    ]);
    return rows.map((row) => ({ id: row.id, recipientDid: row.recipient_did }));
  }

  async visibleSince(
    did: string,
    after: { at: Date; id: string },
    limit: number,
  ): Promise<VisibleNotification[]> {
    const rows = await this.dataSource.query<VisibleRow[]>(NOTIFICATIONS_STATEMENTS.visibleSince, [
      did,
      after.at,
      after.id,
      limit,
    ]);
    return rows.map(visibleOfRow);
  }

  async visiblePage(
    did: string,
    spaceDid: string | null,
    seek: NotificationSeek,
  ): Promise<VisibleNotification[]> {
    const { visiblePage } = NOTIFICATIONS_STATEMENTS;
    const sql = !seek.values ? visiblePage.first : seek.backward ? visiblePage.before : visiblePage.after;
    const rows = await this.dataSource.query<VisibleRow[]>(sql, [
      did,
      spaceDid,
      seek.take,
      ...(seek.values ?? []),
    ]);
    return rows.map(visibleOfRow);
  }

  async visibleCount(did: string, spaceDid: string | null): Promise<number> {
    const [row] = await this.dataSource.query<{ n: number }[]>(NOTIFICATIONS_STATEMENTS.visibleCount, [
      did,
      spaceDid,
    ]);
    return row.n;
  }

  async visibleById(did: string, id: string): Promise<VisibleNotification | null> {
    const [row] = await this.dataSource.query<VisibleRow[]>(NOTIFICATIONS_STATEMENTS.visibleById, [did, id]);
    return row ? visibleOfRow(row) : null;
  }

  async latest(did: string): Promise<{ id: string; last_activity_at: Date } | undefined> {
    const [row] = await this.dataSource.query<{ id: string; last_activity_at: Date }[]>(
      NOTIFICATIONS_STATEMENTS.latest,
      [did],
    );
    return row;
  }

  async unreadCount(did: string): Promise<number> {
    const [row] = await this.dataSource.query<{ unread: number }[]>(NOTIFICATIONS_STATEMENTS.unreadCount, [
      did,
    ]);
    return row.unread;
  }

  /** Marks an unread notification read (TypeORM's update of one row by key). */
  async markRead(id: string, at: Date): Promise<void> {
    await this.notifications.update({ id, readState: 'unread' }, { readState: 'read', lastReadAt: at });
  }

  /** How many notifications it marked read. */
  async markAllRead(did: string, spaceDid: string | null, at: Date): Promise<number> {
    const [, marked] = await this.dataSource.query<[unknown[], number]>(
      NOTIFICATIONS_STATEMENTS.markAllRead,
      [did, spaceDid, at],
    );
    return marked;
  }

  spaceCounts(
    did: string,
  ): Promise<{ id: string; did: string; display_name: string | null; unread: number; last: Date }[]> {
    return this.dataSource.query(NOTIFICATIONS_STATEMENTS.spaceCounts, [did]);
  }

  async membersAfter(
    spaceId: string,
    exceptDid: string,
    afterDid: string | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    const rows = await runner.query<{ did: string }[]>(NOTIFICATIONS_STATEMENTS.membersAfter, [
      spaceId,
      exceptDid,
      afterDid,
      limit,
    ]);
    return rows.map((row) => row.did);
  }

  async beginFanout(key: string): Promise<void> {
    await this.dataSource.query(NOTIFICATIONS_STATEMENTS.fanout.begin, [key]);
  }

  async fanoutProgress(
    key: string,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<{ after_did: string | null; done_at: Date | null } | undefined> {
    const [progress] = await runner.query<{ after_did: string | null; done_at: Date | null }[]>(
      NOTIFICATIONS_STATEMENTS.fanout.progress,
      [key],
    );
    return progress;
  }

  async advanceFanout(
    key: string,
    afterDid: string | null,
    doneAt: Date | null,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.query(NOTIFICATIONS_STATEMENTS.fanout.advance, [key, afterDid, doneAt]);
  }
}
