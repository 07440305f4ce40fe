import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/** Who a notification kind goes to; the read side hides a row once its audience no longer holds. */
export type NotificationAudience = 'members' | 'admins' | 'member' | 'applicant';

/**
 * A person as notifications show them: `displayName` is the account's display name, else its
 * handle, when the activity happened (snapshot); null only for a DID without an account.
 */
export interface StoredPerson {
  did: string;
  displayName: string | null;
}

/** A post of a `post` aggregation (posts of one space), with who wrote it. */
export interface StoredPost {
  id: string;
  title: string | null;
  createdBy: StoredPerson;
}

/** `scope` of the Notification record: what the latest activity of the group is about. */
export interface StoredScope {
  type: string;
  preview: { id: string; title: string; createdBy: StoredPerson; createdAt: string };
}

/**
 * One notification of one recipient. While unread, later activity of the same group (recipient,
 * group key: type and space, plus the post for post kinds) updates this row instead of adding one:
 * `people` gathers the most recent distinct people or posts, `scope` shows the latest
 * activity. Once read, the next activity starts a new row.
 */
@Entity({ name: 'notifications' })
@Index('uq_notifications_unread_group', ['recipientDid', 'groupKey'], {
  unique: true,
  where: `"read_state" = 'unread'`,
})
@Index('idx_notifications_recipient_activity', ['recipientDid', 'lastActivityAt', 'id'])
@Index('idx_notifications_recipient_space', ['recipientDid', 'spaceId', 'lastActivityAt'])
export class Notification {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'recipient_did', type: 'varchar', length: 64 })
  recipientDid: string;

  @Column({ type: 'varchar', length: 64 })
  type: string;

  /** The space's row goes with its notifications (the spaces module's table, by name only). */
  @Column({ name: 'space_id', type: 'uuid' })
  @ForeignKey('spaces', { onDelete: 'CASCADE' })
  spaceId: string;

  @Column({ type: 'varchar', length: 16 })
  audience: NotificationAudience;

  @Column({ name: 'group_key', type: 'varchar', length: 200 })
  groupKey: string;

  @Column({ type: 'jsonb' })
  scope: StoredScope;

  /** `identity` (people) or `post` (posts): what the group's `people` count. */
  @Column({ name: 'aggregation_type', type: 'varchar', length: 16 })
  aggregationType: 'identity' | 'post';

  /**
   * Distinct items of the group, most recent first, bounded: people (`identity`, the most recent
   * PEOPLE_KEPT) or posts (`post`, the most recent POST_SAMPLE: each post is announced once). The
   * column keeps its first name; the record calls them `aggregation.items`.
   */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  people: (StoredPerson | StoredPost)[];

  /** How many distinct items the group gathered (`people` may keep only the most recent). */
  @Column({ name: 'item_count', type: 'integer', default: 0 })
  itemCount: number;

  /** The post the notification is about (content kinds): shown only while the recipient reads it. */
  @Column({ name: 'post_id', type: 'uuid', nullable: true })
  postId: string | null;

  @Column({ name: 'read_state', type: 'varchar', length: 8 })
  readState: 'unread' | 'read';

  @Column({ name: 'first_activity_at', type: 'timestamptz', precision: 3 })
  firstActivityAt: Date;

  @Column({ name: 'last_activity_at', type: 'timestamptz', precision: 3 })
  lastActivityAt: Date;

  @Column({ name: 'last_read_at', type: 'timestamptz', precision: 3, nullable: true })
  lastReadAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
