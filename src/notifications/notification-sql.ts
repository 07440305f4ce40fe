/**
 * The statement that writes one activity for many recipients (NotificationWriter), on its own so
 * the bench's twin sends the same text. $1 ids, $2 recipient DIDs, $3 kind, $4 space, $5 audience,
 * $6 group key, $7 scope, $8 item, $9 time, $10 aggregation type, $11 post.
 */

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
 * A new row per recipient, or, while the recipient's notification of the same group is unread,
 * an update of it (see NotificationWriter): the item goes to the front, the same item further back
 * is dropped, and the group keeps its POST_SAMPLE posts or PEOPLE_KEPT people.
 */
export const WRITE_NOTIFICATIONS = `INSERT INTO notifications AS n (id, recipient_did, type, space_id, audience, group_key, scope,
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
         last_activity_at = GREATEST(n.last_activity_at, EXCLUDED.last_activity_at)`;
