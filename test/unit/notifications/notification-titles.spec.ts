import { Notification, StoredPost } from '../../../src/notifications/entities/notification.entity';
import { namedPosts, shownItems, withTitle } from '../../../src/notifications/domain/notification-titles';

const uuid = (n: number) => `0190f1a2-b3c4-7d5e-8f70-${String(n).padStart(12, '0')}`;
const wire = (n: number) => `post_${uuid(n).replace(/-/g, '')}`;
const author = { did: 'did:plat:author', displayName: 'Author' };
const post = (n: number): StoredPost => ({ id: wire(n), title: `Post ${n}`, createdBy: author });

function notification(aggregationType: 'post' | 'identity', people: Notification['people']): Notification {
  return Object.assign(new Notification(), { aggregationType, people });
}

describe('notification titles (0115-notification-titles-read-now)', () => {
  it('names a post by its card title when it has one', () => {
    expect(withTitle('Mia posted', 'Kiln day')).toBe('Mia posted: Kiln day');
    expect(withTitle('Mia posted', null)).toBe('Mia posted');
  });

  it('collects the posts of post aggregations only, as uuids', () => {
    const rows = [
      notification('post', [post(1), post(2)]),
      notification('identity', [author]),
      notification('post', [post(3), { ...post(4), id: 'not-a-post-id' }]),
    ];
    expect(namedPosts(rows)).toEqual([uuid(1), uuid(2), uuid(3)]);
  });

  it('shows only the posts the recipient reads now, in their order; people are shown as kept', () => {
    const row = notification('post', [post(3), post(2), post(1)]);
    expect(shownItems(row, new Set([uuid(1), uuid(3)]))).toEqual([post(3), post(1)]);
    expect(shownItems(row, new Set())).toEqual([]);
    const people = notification('identity', [author]);
    expect(shownItems(people, new Set())).toEqual([author]);
  });
});
