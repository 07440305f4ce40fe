import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newUuid } from '../common/ids/entity-id';
import { NotificationAudience, StoredPerson, StoredPost, StoredScope } from './entities/notification.entity';

/** The key an item is counted once by: a post's id, a person's DID. */
const ITEM_KEY = `COALESCE(EXCLUDED.people->0->>'id', EXCLUDED.people->0->>'did')`;

/** Posts a `post` group keeps (the most recent; `item_count` counts them all). */
export const POST_SAMPLE = 5;

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

/**
 * Writes one activity for many recipients in one statement: a new row each, or, while the
 * recipient's notification of the same group is unread, an update of it (the item moves to the
 * front of the group, counted once by its post id or DID in `item_count`; a `post` group keeps
 * only its most recent posts; the preview becomes this activity; lastActivityAt moves forward). Concurrency-safe (`ON CONFLICT` on the unread group index).
 */
@Injectable()
export class NotificationWriter {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async write(recipients: string[], draft: NotificationDraft, manager?: EntityManager): Promise<void> {
    if (recipients.length === 0) return;
    await (manager ?? this.dataSource.manager).query(
      `INSERT INTO notifications AS n (id, recipient_did, type, space_id, audience, group_key, scope,
         aggregation_type, people, item_count, post_id, read_state, first_activity_at, last_activity_at,
         last_read_at, created_at)
       SELECT r.id, r.did, $3, $4, $5, $6, $7::jsonb, $10, jsonb_build_array($8::jsonb), 1, $11, 'unread', $9, $9,
         NULL, $9
       FROM unnest($1::uuid[], $2::varchar[]) AS r(id, did)
       ON CONFLICT (recipient_did, group_key) WHERE read_state = 'unread' DO UPDATE SET
         scope = EXCLUDED.scope,
         post_id = EXCLUDED.post_id,
         people = EXCLUDED.people || COALESCE(
           (SELECT jsonb_agg(p.value ORDER BY p.ord)
              FROM jsonb_array_elements(n.people) WITH ORDINALITY AS p(value, ord)
             WHERE COALESCE(p.value->>'id', p.value->>'did') <> ${ITEM_KEY}
               AND (n.aggregation_type <> 'post' OR p.ord < ${POST_SAMPLE})),
           '[]'::jsonb),
         item_count = n.item_count + CASE WHEN EXISTS (
             SELECT 1 FROM jsonb_array_elements(n.people) AS p(value)
              WHERE COALESCE(p.value->>'id', p.value->>'did') = ${ITEM_KEY}) THEN 0 ELSE 1 END,
         last_activity_at = GREATEST(n.last_activity_at, EXCLUDED.last_activity_at)`,
      [
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
      ],
    );
  }
}
