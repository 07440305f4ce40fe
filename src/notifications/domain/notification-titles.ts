import { parseEntityId } from '../../common/ids/entity-id';
import type { Notification, StoredPerson, StoredPost } from '../entities/notification.entity';

/** The name a title shows for a person. */
export const nameOf = (person: StoredPerson): string => person.displayName ?? person.did;

/** A notification title naming the post by its card title when it has one. */
export function withTitle(sentence: string, postTitle: string | null): string {
  return postTitle ? `${sentence}: ${postTitle}` : sentence;
}

/** The posts (uuid) that the `post` aggregations of these notifications name. */
export function namedPosts(rows: Notification[]): string[] {
  return rows
    .filter((row) => row.aggregationType === 'post')
    .flatMap((row) => (row.people as StoredPost[]).map((item) => parseEntityId('post', item.id)))
    .filter((id): id is string => id !== null);
}

/**
 * The items a notification shows: a `post` aggregation only names the posts its recipient reads
 * now (`readable`, from PostReadabilityService at read time), so an announced post since deleted or moved
 * where the recipient cannot read it no longer shows its title
 * (docs/decisions/0115-notification-titles-read-now.md).
 */
export function shownItems(row: Notification, readable: ReadonlySet<string>): (StoredPerson | StoredPost)[] {
  if (row.aggregationType !== 'post') return row.people;
  return (row.people as StoredPost[]).filter((item) => readable.has(parseEntityId('post', item.id) ?? ''));
}
