import { DateTime } from 'luxon';
import type { DemoApi } from './demo-api';
import type { SeededPerson } from './people';
import type { DemoEvent, DemoSpace } from './plan';
import { personOf, type SeededSpace } from './spaces';

type People = ReadonlyMap<string, SeededPerson>;

export interface ContentCounts {
  topics: number;
  posts: number;
  comments: number;
  events: number;
  products: number;
}

/**
 * The space's topics, posts (with their comments and upvotes), events and products: each looked up
 * by name (topic name, the author's own post titles, comment bodies, event titles, product slugs)
 * and created only when missing, so a second run adds nothing and an interrupted one is completed.
 */
export async function ensureContent(
  api: DemoApi,
  space: SeededSpace,
  plan: DemoSpace,
  people: People,
  now: Date,
): Promise<ContentCounts> {
  const counts: ContentCounts = { topics: 0, posts: 0, comments: 0, events: 0, products: 0 };
  const owner = personOf(people, plan.owner).identity;

  const topics = new Map(
    (await api.all<{ id: string; name: string }>(owner, `/spaces/${space.id}/topics`)).map((topic) => [
      topic.name,
      topic.id,
    ]),
  );
  for (const topic of plan.topics) {
    if (topics.has(topic.name)) continue;
    const { body } = await api.call<{ id: string }>(owner, 'POST', `/spaces/${space.id}/topics`, topic);
    topics.set(topic.name, body.id);
    counts.topics += 1;
  }

  const postsPath = `/v1/spaces/${space.id}/posts`;
  for (const post of plan.posts) {
    const author = personOf(people, post.author).identity;
    // A bare identity proof reads the author's own posts, members-only ones included.
    const own = await api.all<{ id: string; title: string | null }>(author, postsPath);
    let postId = own.find((item) => item.title === post.title)?.id;
    if (!postId) {
      const topic = topics.get(post.topic);
      if (!topic) throw new Error(`the demo post "${post.title}" names an unknown topic "${post.topic}"`);
      postId = (
        await api.call<{ id: string }>(author, 'POST', postsPath, {
          topic,
          title: post.title,
          body: post.body,
        })
      ).body.id;
      counts.posts += 1;
    }
    const commentsPath = `${postsPath}/${postId}/comments`;
    const bodies = new Set(
      (await api.all<{ body: string | null }>(author, commentsPath)).map((comment) => comment.body),
    );
    for (const comment of post.comments) {
      if (bodies.has(comment.body)) continue;
      await api.call(personOf(people, comment.author).identity, 'POST', commentsPath, { body: comment.body });
      counts.comments += 1;
    }
    for (const handle of post.upvotedBy) {
      await api.call(personOf(people, handle).identity, 'PUT', `${postsPath}/${postId}/upvote`);
    }
  }

  if (plan.events.length > 0) {
    const since = DateTime.fromJSDate(now).minus({ days: 30 }).toUTC().toISO();
    const listed = await api.all<{ title: string }>(
      null,
      `/v1/spaces/${space.id}/events?from=${encodeURIComponent(since!)}`,
    );
    const titles = new Set(listed.map((occurrence) => occurrence.title));
    for (const event of plan.events) {
      if (titles.has(event.title)) continue;
      await api.call(owner, 'POST', `/spaces/${space.id}/events`, eventBody(event, now));
      counts.events += 1;
    }
  }

  if (plan.products.length > 0) {
    const slugs = new Set(
      (await api.all<{ slug: string }>(null, `/v1/spaces/${space.id}/products`)).map(
        (product) => product.slug,
      ),
    );
    for (const product of plan.products) {
      if (slugs.has(product.slug)) continue;
      await api.call(owner, 'POST', `/spaces/${space.id}/products`, { ...product, published: true });
      counts.products += 1;
    }
  }
  return counts;
}

/** A public timed event whose first occurrence is the next `weekday` at `hour`:00 after `now`. */
export function eventBody(event: DemoEvent, now: Date): Record<string, unknown> {
  let start = DateTime.fromJSDate(now, { zone: event.timeZone }).startOf('day').set({ hour: event.hour });
  while (start.weekday !== event.weekday || start.toMillis() <= now.getTime())
    start = start.plus({ days: 1 });
  return {
    title: event.title,
    description: event.description,
    location: event.location,
    type: 'attend',
    mode: 'place',
    isAllDay: false,
    startsAt: start.toUTC().toISO({ suppressMilliseconds: true }),
    endsAt: start.plus({ hours: event.durationHours }).toUTC().toISO({ suppressMilliseconds: true }),
    timeZone: event.timeZone,
    rrule: event.rrule,
    visibility: 'public',
  };
}
