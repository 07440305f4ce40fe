/**
 * Issue 34's independent client: writes posts, comments, pages and events in several topics and
 * access levels, searches them as every kind of reader, and compares each result set with what the
 * listings show that reader, filtered here by the documented query semantics (the search routes'
 * OpenAPI `q`; docs/decisions/0180-search-indexes-on-the-owners-tables.md and
 * 0181-search-query-and-ranking.md: whole words, `simple` with case and accent folding, web search
 * syntax, the last word a prefix while typed). Nothing here comes from src/search.
 */
import { Response } from 'supertest';
import { isDeepStrictEqual } from 'util';
import { Actor } from '../../support/actors';
import { timedEvent } from '../events/support';
import { addToGroup, newGroup } from '../memberships/support';
import {
  admit,
  bootSpaces,
  expectStatus,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from '../posts/support';

type Kind = 'post' | 'comment' | 'page' | 'event';
type Item = { id: string; [member: string]: unknown };

interface Reader {
  name: string;
  get(path: string): Promise<Response>;
}

/** One thing a reader's listings show: its kind, its listing item, and its searchable fields' text. */
interface Listed {
  type: Kind;
  item: Item;
  fields: string[];
}

/** What a reader's listings show of one space: the status of its posts listing, then its things. */
interface Seen {
  status: number;
  things: Map<string, Listed>;
}

// ---- The documented query semantics, as a client implements them -------------------------------

/** `plat_search` compares words lower-cased with their accents removed (record 0180). */
const fold = (word: string): string => word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
/** Words as the corpus writes them: letters and digits between anything else (no hyphens, no URLs). */
const words = (text: string): string[] =>
  text
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .map(fold);

type Term = { kind: 'word'; word: string; prefix: boolean } | { kind: 'phrase'; words: string[] };
/**
 * A query as `websearch_to_tsquery` reads it (record 0181): `OR` binds looser than the words around
 * it (`a b OR c` is `(a & b) | c`, PostgreSQL's operator precedence), so a query is alternatives of
 * groups, each of terms all required or, with `-`, all excluded.
 */
type Query = { term: Term; negated: boolean }[][];

/**
 * Parses the web search syntax this corpus's queries use (words, "phrases", OR, -word), with the
 * last bare word a prefix while typed: no trailing space, not quoted, not excluded, not `OR`, at
 * least 3 characters (the route's OpenAPI `q`).
 */
function parse(q: string): Query {
  const tokens: { text: string; quoted: boolean; negated: boolean }[] = [];
  const pattern = /(-?)"([^"]*)"|(-?)(\S+)/g;
  for (let match = pattern.exec(q); match; match = pattern.exec(q)) {
    if (match[2] !== undefined) tokens.push({ text: match[2], quoted: true, negated: match[1] === '-' });
    else tokens.push({ text: match[4], quoted: false, negated: match[3] === '-' });
  }
  const typing = !/\s$/.test(q);
  const groups: Query = [[]];
  tokens.forEach((token, index) => {
    if (!token.quoted && !token.negated && token.text === 'OR') {
      groups.push([]);
      return;
    }
    const last = index === tokens.length - 1;
    const term: Term = token.quoted
      ? { kind: 'phrase', words: words(token.text) }
      : {
          kind: 'word',
          word: fold(token.text),
          prefix: last && typing && !token.negated && [...token.text].length >= 3,
        };
    groups[groups.length - 1].push({ term, negated: token.negated });
  });
  return groups.filter((group) => group.length > 0);
}

function termIn(term: Term, fields: string[][]): boolean {
  if (term.kind === 'word') {
    return fields.some((field) =>
      field.some((word) => (term.prefix ? word.startsWith(term.word) : word === term.word)),
    );
  }
  return fields.some((field) =>
    field.some((_, start) => term.words.every((word, offset) => field[start + offset] === word)),
  );
}

/**
 * A lone last word (no other word a match must contain, not an `OR` alternative) is read as the
 * whole word once more than a page (21, record 0185) of the reader's posts hold it so: the
 * type-ahead user who typed a frequent word in full sees its matches, not every longer word.
 */
const EXACT_FIRST = 21;
function wholeWordWhenFrequent(query: Query, postFields: string[][]): Query {
  const required = query.flat().filter(({ negated }) => !negated);
  const [only] = required;
  if (query.length !== 1 || required.length !== 1 || only.term.kind !== 'word' || !only.term.prefix)
    return query;
  const whole: Term = { ...only.term, prefix: false };
  const holding = postFields.filter((texts) => termIn(whole, texts.map(words))).length;
  if (holding < EXACT_FIRST) return query;
  return [query[0].map((entry) => (entry === only ? { term: whole, negated: false } : entry))];
}

const matches = (query: Query, texts: string[]): boolean => {
  const fields = texts.map(words);
  return query.some((group) => group.every(({ term, negated }) => termIn(term, fields) !== negated));
};

// ---- Talking to the API ---------------------------------------------------------------------------

const key = (type: Kind, id: string) => `${type}:${id}`;

/**
 * Runs the tasks a few at once, so that the app's work on one request overlaps the database's on
 * another (they share the machine's two cores); all settle before the first failure is rethrown,
 * so that no request outlives its test.
 */
async function inPool<T>(tasks: (() => Promise<T>)[], width = 4): Promise<T[]> {
  const results: T[] = [];
  const failures: unknown[] = [];
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await tasks[index]();
      } catch (error) {
        failures.push(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, lane));
  if (failures.length > 0) throw failures[0];
  return results;
}

/**
 * Every item of a listing, following `nextCursor` in the largest pages (the listings are the
 * reference here, not what is tested); the status when the listing refuses the reader.
 */
async function walk(reader: Reader, path: string): Promise<{ status: number; items: Item[] }> {
  const items: Item[] = [];
  let cursor: string | null = null;
  const separator = path.includes('?') ? '&' : '?';
  for (let page = 0; page < 100; page += 1) {
    const response: Response = await reader.get(
      `${path}${separator}limit=100${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (response.status !== 200) return { status: response.status, items };
    items.push(...(response.body as { items: Item[] }).items);
    cursor = (response.body as { nextCursor: string | null }).nextCursor;
    if (!cursor) return { status: 200, items };
  }
  throw new Error(`${path} did not end`);
}

interface SearchResult {
  type: Kind;
  item: Item;
  highlight: { text: string; matches: { start: number; end: number }[] };
}

/**
 * Every result of a search, walking all pages by cursor (a small page, so several, across the
 * recency tiers); then back from each page by its `previousCursor`, which must give the page before.
 * Not `paged`: every result in one page of the largest size, which must be the only one.
 */
async function searchAll(
  reader: Reader,
  path: string,
  paged = true,
): Promise<{ status: number; results: SearchResult[] }> {
  if (!paged) {
    const response = await reader.get(`${path}&limit=100`);
    if (response.status !== 200) return { status: response.status, results: [] };
    const { items, nextCursor, previousCursor } = response.body as {
      items: SearchResult[];
      nextCursor: string | null;
      previousCursor: string | null;
    };
    if ('totalCount' in (response.body as object) || nextCursor !== null || previousCursor !== null)
      expect({ path, totalCount: response.body.totalCount, nextCursor, previousCursor }).toEqual({
        path,
        totalCount: undefined,
        nextCursor: null,
        previousCursor: null,
      });
    return { status: 200, results: items };
  }
  const pages: { ids: string[]; previous: string | null }[] = [];
  const results: SearchResult[] = [];
  // Each page's way back is asked for as soon as its previousCursor is known, beside the walk on.
  const backs: Promise<Response>[] = [];
  let cursor: string | null = null;
  const ids = (response: Response) =>
    (response.body as { items: SearchResult[] }).items.map((result) => `${result.type}:${result.item.id}`);
  for (let page = 0; page < 100; page += 1) {
    const response: Response = await reader.get(
      `${path}&limit=3${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (response.status !== 200) {
      await Promise.allSettled(backs);
      return { status: response.status, results };
    }
    if ('totalCount' in (response.body as object)) expect(response.body).not.toHaveProperty('totalCount');
    results.push(...(response.body as { items: SearchResult[] }).items);
    const previous = (response.body as { previousCursor: string | null }).previousCursor;
    pages.push({ ids: ids(response), previous });
    if (page > 0) backs.push(reader.get(`${path}&limit=3&before=${encodeURIComponent(previous ?? '')}`));
    cursor = (response.body as { nextCursor: string | null }).nextCursor;
    if (!cursor) break;
  }
  const back = await Promise.all(backs);
  if (cursor) throw new Error(`${path} did not end`);
  back.forEach((response, index) => {
    const page = index + 1;
    expectStatus(response, 200);
    if (!isDeepStrictEqual(ids(response), pages[page - 1].ids))
      expect({ path, page, ids: ids(response) }).toEqual({ path, page, ids: pages[page - 1].ids });
  });
  return { status: 200, results };
}

describe('search against the listings, as an independent client (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let crew: Actor;
  let stranger: Actor;
  let app: Actor;
  let leaver: Actor;
  let formerCrew: Actor;
  /** A space with a public profile, and one without. */
  let open: { id: string; did: string };
  let closed: { id: string; did: string };
  const readers: Record<string, Reader> = {};
  /** Which spaces each reader searches across (`GET /v1/search`): where they are active members. */
  const memberOf: Record<string, string[]> = {};
  const seen: Record<string, Record<string, Seen>> = {};

  const as =
    (actor: Actor, credential?: string): Reader['get'] =>
    (path) =>
      actor.get(path, credential ? { credential } : undefined);

  async function event(spaceId: string, body: Record<string, unknown>): Promise<string> {
    const response = await owner.post(`/spaces/${spaceId}/events`, timedEvent(body));
    expectStatus(response, 201);
    return response.body.id as string;
  }

  async function page(spaceId: string, title: string, body: string, enabled = true): Promise<string> {
    const response = await owner.post(`/spaces/${spaceId}/pages`, { title, body });
    expectStatus(response, 201);
    const id = response.body.id as string;
    if (!enabled)
      expectStatus(await owner.put(`/spaces/${spaceId}/pages/${id}`, { title, body, enabled }), 200);
    return id;
  }

  async function comment(author: Actor, spaceId: string, postId: string, body: string, parent?: string) {
    const response = await author.post(`/v1/spaces/${spaceId}/posts/${postId}/comments`, {
      body,
      ...(parent ? { parentCommentId: parent } : {}),
    });
    expectStatus(response, 201);
    return response.body.id as string;
  }

  /** What the reader's listings show of a space, with each thing's searchable text (full post, full page). */
  async function listingsOf(reader: Reader, spaceId: string): Promise<Seen> {
    const things = new Map<string, Listed>();
    const posts = await walk(reader, `/v1/spaces/${spaceId}/posts`);
    if (posts.status !== 200) return { status: posts.status, things };
    for (const card of posts.items) {
      const full = await reader.get(`/v1/spaces/${spaceId}/posts/${card.id}`);
      expectStatus(full, 200);
      // A card of the listing is one the reader reads: the post route agrees.
      expect(full.body.state).toBe('eligible');
      const post = full.body.post as { title: string | null; body: string | null };
      things.set(key('post', card.id), {
        type: 'post',
        item: card,
        fields: [post.title ?? '', post.body ?? ''],
      });
      const roots = await walk(reader, `/v1/spaces/${spaceId}/posts/${card.id}/comments`);
      for (const root of roots.items) {
        const replies =
          (root.replyCount as number) > 0
            ? (
                await walk(
                  reader,
                  `/v1/spaces/${spaceId}/posts/${card.id}/comments?parentCommentId=${root.id}`,
                )
              ).items
            : [];
        for (const one of [root, ...replies]) {
          things.set(key('comment', one.id), {
            type: 'comment',
            item: one,
            fields: [(one.body as string | null) ?? ''],
          });
        }
      }
    }
    const pages = await walk(reader, `/v1/spaces/${spaceId}/pages`);
    for (const item of pages.items) {
      const full = await reader.get(`/v1/spaces/${spaceId}/pages/${item.id}`);
      expectStatus(full, 200);
      things.set(key('page', item.id), {
        type: 'page',
        item,
        fields: [full.body.title as string, (full.body.body as string | null) ?? ''],
      });
    }
    const from = t.clock.now().toISOString();
    const to = new Date(t.clock.now().getTime() + 365 * 86_400_000).toISOString();
    const events = await walk(reader, `/v1/spaces/${spaceId}/events?from=${from}&to=${to}`);
    for (const occurrence of events.items) {
      // The soonest occurrence in the window (the listing is earliest first).
      if (things.has(key('event', occurrence.id))) continue;
      things.set(key('event', occurrence.id), {
        type: 'event',
        item: occurrence,
        fields: [
          occurrence.title as string,
          (occurrence.description as string | null) ?? '',
          (occurrence.location as string | null) ?? '',
        ],
      });
    }
    return { status: 200, things };
  }

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member, crew, stranger, app, leaver, formerCrew] = await Promise.all(
      Array.from({ length: 7 }, () => person(t)),
    );
    // Writes that do not depend on one another, nor on the clock's order, are sent together.
    [open, closed] = await Promise.all([newSpace(owner, 'Open'), newSpace(owner, 'Closed')]);
    await makePublic(owner, open.id);
    const group = await newGroup(owner, open.id);
    // A space's invite is one at a time: each space admits in turn, the two spaces at once.
    const admitAll = async (spaceId: string, people: Actor[]) => {
      for (const one of people) await admit(owner, spaceId, one);
    };
    await Promise.all([
      admitAll(open.id, [member, crew, leaver, formerCrew]),
      admitAll(closed.id, [member, crew, leaver]),
    ]);
    // The group's member; one who left the closed space, one who left the group.
    await Promise.all([
      addToGroup(owner, open.id, group.id, crew),
      (async () => expectStatus(await leaver.delete(`/spaces/${closed.id}/membership`), 204))(),
      (async () => {
        await addToGroup(owner, open.id, group.id, formerCrew);
        expectStatus(
          await owner.delete(`/spaces/${open.id}/groups/${group.id}/members/${formerCrew.did}`),
          204,
        );
      })(),
    ]);
    const [publicTopic, signedIn, membersTopic, crewTopic, closedPublic, closedMembers] = await Promise.all([
      newTopic(owner, open.id, 'Public', 'public'),
      newTopic(owner, open.id, 'Signed in', 'signedIn'),
      newTopic(owner, open.id, 'Members', 'members'),
      newTopic(owner, open.id, 'Crew', { groups: [group.id] }),
      newTopic(owner, closed.id, 'Closed public', 'public'),
      newTopic(owner, closed.id, 'Closed members', 'members'),
    ]);
    const topics = {
      public: publicTopic,
      signedIn,
      members: membersTopic,
      crew: crewTopic,
      closedPublic,
      closedMembers,
    };
    const write = async (spaceId: string, author: Actor, body: Record<string, unknown>) => {
      t.clock.offsetMs += 1000;
      return (await newPost(author, spaceId, body)).id;
    };

    // Older things, so that a walk crosses the recency tiers (the last day, 30 days, the rest), an
    // event that has ended, and a weekly one whose first occurrences have.
    const day = 86_400_000;
    t.clock.offsetMs = -40 * day;
    await write(open.id, member, { topic: topics.public, body: 'an old zephyr lantern from last season' });
    await write(open.id, member, { topic: topics.members, title: 'Old marigold', body: 'zephyr archive' });
    await event(open.id, {
      title: 'Zephyr ended night',
      startsAt: new Date(t.clock.now().getTime() + day).toISOString(),
      endsAt: new Date(t.clock.now().getTime() + day + 3_600_000).toISOString(),
    });
    await event(open.id, {
      title: 'Weekly zephyr circle',
      description: 'marigold tea',
      startsAt: new Date(t.clock.now().getTime() + day).toISOString(),
      endsAt: new Date(t.clock.now().getTime() + day + 3_600_000).toISOString(),
      rrule: 'FREQ=WEEKLY',
    });
    await event(open.id, {
      title: 'Zephyr open ended',
      startsAt: new Date(t.clock.now().getTime() + day).toISOString(),
    });
    await event(open.id, {
      title: 'Finished zephyr series',
      startsAt: new Date(t.clock.now().getTime() + day).toISOString(),
      endsAt: new Date(t.clock.now().getTime() + day + 3_600_000).toISOString(),
      rrule: 'FREQ=WEEKLY;COUNT=2',
    });
    t.clock.offsetMs = -10 * day;
    const older = await write(open.id, member, {
      topic: topics.signedIn,
      body: 'zephyr lantern ten days old',
    });
    await comment(member, open.id, older, 'a zephyr comment ten days old');
    t.clock.offsetMs = 0;

    // Posts: distinctive words in every topic, some only below a fold.
    const venue = await write(open.id, member, {
      topic: topics.public,
      title: 'Venue change',
      body: 'The zephyr meetup moves to the old mill Café.<!--fold-->The basement zephyr door is green, lantern inside.',
    });
    await write(open.id, member, {
      topic: topics.public,
      body: 'Zephyrus lantern walk by the river, naïve and quiet.',
    });
    const signed = await write(open.id, member, {
      topic: topics.signedIn,
      body: 'zephyr notes for the signed in, marigold seeds and a lantern.',
    });
    await write(open.id, member, {
      topic: topics.signedIn,
      title: 'Quasar watch',
      body: 'A quasar seen from the mill.',
    });
    const members = await write(open.id, member, {
      topic: topics.members,
      body: 'ZEPHYR plans for members only: marimba practice near the old mill.',
    });
    await write(open.id, crew, {
      topic: topics.members,
      title: 'Tundra trip',
      body: 'Tundra and marigold.<!--fold-->Secret quasar below the fold.',
    });
    const secret = await write(open.id, crew, {
      topic: topics.crew,
      body: 'zephyr secrets of the crew, lantern marigold tundra, a NAIVE old mill.',
    });
    // Deleted: gone at once.
    const deleted = await write(open.id, member, {
      topic: topics.public,
      body: 'zephyr lantern that was deleted',
    });
    expectStatus(await member.delete(`/v1/spaces/${open.id}/posts/${deleted}`), 200);
    // Moved: from public to members, and from the group's topic to public.
    const movedIn = await write(open.id, member, { topic: topics.public, body: 'wandering zephyr marigold' });
    expectStatus(
      await member.patch(`/v1/spaces/${open.id}/posts/${movedIn}`, { topic: topics.members }),
      200,
    );
    const movedOut = await write(open.id, crew, {
      topic: topics.crew,
      body: 'wandering quasar out of the crew',
    });
    expectStatus(await crew.patch(`/v1/spaces/${open.id}/posts/${movedOut}`, { topic: topics.public }), 200);
    // A word in exactly a page of the posts some readers read (20 public, 1 for members): the lone
    // word is a prefix for the first, the whole word for the others.
    for (let n = 0; n < 20; n += 1)
      await write(open.id, owner, { topic: topics.public, body: `ripple number ${n}` });
    await write(open.id, owner, { topic: topics.members, body: 'a ripple for members' });
    const rippled = await write(open.id, owner, { topic: topics.public, body: 'the pond rippled' });
    // The space without a public profile.
    const closedPost = await write(closed.id, member, {
      topic: topics.closedPublic,
      body: 'zephyr in a closed space, lantern lit.',
    });
    await write(closed.id, owner, {
      topic: topics.closedMembers,
      title: 'Closed tundra',
      body: 'marigold zephyr',
    });

    // Comments, replies, a deleted reply and a deleted root that keeps its reply; pages, enabled and
    // not, in both spaces; events: public, members only, draft, deleted, in both spaces, one under
    // way now and a series whose next occurrence is canceled. None of them moves the clock.
    let root = '';
    await Promise.all([
      (async () => {
        root = await comment(member, open.id, venue, 'a zephyr comment about the old mill');
        await comment(crew, open.id, venue, 'lantern reply, marigold too', root);
        const gone = await comment(member, open.id, venue, 'zephyr reply soon deleted', root);
        expectStatus(await member.delete(`/v1/spaces/${open.id}/comments/${gone}`), 200);
      })(),
      (async () => {
        const tombstone = await comment(member, open.id, signed, 'zephyr root to be deleted');
        await comment(crew, open.id, signed, 'a quasar reply that stays', tombstone);
        expectStatus(await member.delete(`/v1/spaces/${open.id}/comments/${tombstone}`), 200);
      })(),
      comment(crew, open.id, members, 'members zephyr comment, Tundra'),
      comment(crew, open.id, secret, 'crew lantern comment'),
      comment(member, open.id, movedIn, 'zephyr on a moved post'),
      comment(member, closed.id, closedPost, 'closed zephyr comment'),
      comment(member, open.id, rippled, 'rippled water'),
      page(open.id, 'Zephyr guide', 'How to reach the old mill by bike, lantern in hand.'),
      page(open.id, 'Marigold garden', 'Tundra plants.'),
      page(open.id, 'Rippled glass', 'windows'),
      page(open.id, 'Hidden zephyr page', 'lantern', false),
      page(closed.id, 'Closed zephyr page', 'lantern'),
      event(open.id, {
        title: 'Zephyr night',
        description: 'Music at the old mill',
        location: 'Marigold hall',
        startsAt: '2027-01-14T17:00:00Z',
      }),
      event(open.id, {
        title: 'Lantern parade',
        description: 'quasar watching',
        startsAt: '2027-02-01T18:00:00Z',
      }),
      event(open.id, { title: 'Zephyr members night', visibility: 'members' }),
      event(open.id, { title: 'Zephyr draft night', visibility: 'draft' }),
      (async () => {
        const cancelled = await event(open.id, { title: 'Zephyr deleted night', description: 'lantern' });
        expectStatus(await owner.delete(`/spaces/${open.id}/events/${cancelled}`), 204);
      })(),
      event(closed.id, { title: 'Closed zephyr night' }),
      event(open.id, {
        title: 'Zephyr under way',
        startsAt: new Date(t.clock.now().getTime() - 3_600_000).toISOString(),
        endsAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
      }),
      (async () => {
        const series = await event(open.id, {
          title: 'Lantern series',
          startsAt: '2027-01-07T17:00:00Z',
          rrule: 'FREQ=WEEKLY;COUNT=3',
        });
        expectStatus(
          await owner.put(`/spaces/${open.id}/events/${series}/occurrences/2027-01-07T18:00:00`, {
            canceled: true,
          }),
          200,
        );
      })(),
    ]);

    // Edits: the searched text follows each owner's write (a fold added to a post, a comment, a
    // page and an event rewritten); upvotes and a pin change the cards the listings show.
    const edited = await write(open.id, member, { topic: topics.public, body: 'a quokka above all' });
    expectStatus(
      await member.patch(`/v1/spaces/${open.id}/posts/${edited}`, {
        body: 'a heron above<!--fold-->the quokka below',
      }),
      200,
    );
    await Promise.all([
      (async () => {
        const rewritten = await comment(member, open.id, edited, 'quokka comment');
        expectStatus(
          await member.patch(`/v1/spaces/${open.id}/comments/${rewritten}`, { body: 'heron comment' }),
          200,
        );
      })(),
      (async () => {
        const renamed = await page(open.id, 'Quokka page', 'a quokka page');
        expectStatus(
          await owner.put(`/spaces/${open.id}/pages/${renamed}`, {
            title: 'Heron page',
            body: 'a heron page',
          }),
          200,
        );
      })(),
      (async () => {
        const moved = await event(open.id, { title: 'Quokka night', startsAt: '2027-03-01T18:00:00Z' });
        expectStatus(
          await owner.put(
            `/spaces/${open.id}/events/${moved}`,
            timedEvent({ title: 'Heron night', startsAt: '2027-03-01T18:00:00Z' }),
          ),
          200,
        );
      })(),
      (async () => {
        expectStatus(await member.put(`/v1/spaces/${open.id}/posts/${venue}/upvote`, {}), 200);
        expectStatus(await owner.put(`/spaces/${open.id}/posts/${venue}/pin`, {}), 200);
      })(),
      (async () => expectStatus(await crew.put(`/v1/spaces/${open.id}/comments/${root}/upvote`, {}), 200))(),
    ]);

    // The readers.
    const covering = member.grant(app, ['read:posts'], [open.did]);
    const elsewhere = member.grant(app, ['read:posts'], [closed.did]);
    const noRead = member.grant(app, ['write:posts']);
    const revoked = member.grant(app, ['read:posts'], [open.did, closed.did]);
    await member.revoke(revoked);
    Object.assign(readers, {
      anonymous: { name: 'anonymous', get: (path: string) => t.anonymous.get(path) },
      stranger: { name: 'a signed-in stranger', get: as(stranger) },
      member: { name: 'a member', get: as(member) },
      crew: { name: 'a group member', get: as(crew) },
      owner: { name: 'the owner', get: as(owner) },
      covering: { name: 'an app covering the open space', get: as(app, covering) },
      elsewhere: { name: 'an app covering the closed space only', get: as(app, elsewhere) },
      noRead: { name: 'an app without read:posts', get: as(app, noRead) },
      revoked: { name: 'an app with a revoked credential', get: as(app, revoked) },
      leaver: { name: 'one who left the closed space', get: as(leaver) },
      formerCrew: { name: 'one who left the group', get: as(formerCrew) },
    });
    Object.assign(memberOf, {
      stranger: [],
      member: [open.id, closed.id],
      crew: [open.id, closed.id],
      owner: [open.id, closed.id],
      covering: [open.id],
      elsewhere: [closed.id],
      leaver: [open.id],
      formerCrew: [open.id],
    });
    for (const name of Object.keys(readers)) seen[name] = {};
    await inPool(
      Object.keys(readers).flatMap((name) =>
        [open, closed].map((space) => async () => {
          seen[name][space.id] = await listingsOf(readers[name], space.id);
        }),
      ),
    );
  });

  afterAll(() => t?.close());

  const QUERIES = [
    'zephyr',
    'zephyr ',
    'lantern marigold',
    'lantern marigold ',
    '"old mill"',
    'quasar OR tundra ',
    'mill quasar OR tun',
    'zephyr -lantern ',
    'zephyr -"old mill" ',
    'mari',
    'lantern mari',
    'cafe',
    'NAIVE',
    'ZéPHYR ',
    'basement',
    'mill quasar OR tundra ',
    'lantern OR marigold zephyr ',
    'ripple',
    'ripple ',
    'rip',
    '-zephyr ripple',
    'quokka',
    'heron',
  ];

  /**
   * The results as `type:id`, each once; each item equal to its listing's item for the reader, and
   * its highlight plain text of what that listing shows, marking only the query's words. Each check
   * runs its `expect` only when a plain comparison finds a difference: the same failures with the
   * same messages, without building thousands of passing matchers (a second of the suite's CPU).
   */
  function compare(
    results: SearchResult[],
    expected: Map<string, Listed>,
    q: string,
    label: string,
  ): string[] {
    const keys = results.map((result) => key(result.type, result.item.id));
    const repeats = keys.filter((entry, index) => keys.indexOf(entry) !== index);
    if (repeats.length > 0) expect({ label, repeats }).toEqual({ label, repeats: [] });
    const wanted = parse(q)
      .flat()
      .filter(({ negated }) => !negated)
      .map(({ term }) => term);
    const marks = (word: string) =>
      wanted.some((term) =>
        term.kind === 'phrase'
          ? term.words.includes(word)
          : term.prefix
            ? word.startsWith(term.word)
            : word === term.word,
      );
    for (const result of results) {
      const entry = key(result.type, result.item.id);
      const listed = expected.get(entry);
      if (!listed) continue;
      if (!isDeepStrictEqual(result.item, listed.item))
        expect({ label, item: result.item }).toEqual({ label, item: listed.item });
      const { text, matches: marked } = result.highlight;
      const shown = new Set(listed.fields.flatMap(words));
      const unlisted = words(text).filter((word) => !shown.has(word));
      if (unlisted.length > 0) expect({ label, entry, unlisted }).toEqual({ label, entry, unlisted: [] });
      if (marked.length === 0)
        expect({ label, entry, marked: marked.length > 0 }).toEqual({ label, entry, marked: true });
      const wrong = marked
        .map(({ start, end }) => text.slice(start, end))
        .filter((word) => !marks(fold(word)));
      if (wrong.length > 0) expect({ label, entry, wrong }).toEqual({ label, entry, wrong: [] });
    }
    return [...keys].sort();
  }

  const expectedIn = (things: Map<string, Listed>, q: string): Map<string, Listed> => {
    const posts = [...things.values()].filter((thing) => thing.type === 'post').map((thing) => thing.fields);
    const query = wholeWordWhenFrequent(parse(q), posts);
    return new Map([...things].filter(([, thing]) => matches(query, thing.fields)));
  };

  /** Every kind of reader; each query below is run as each, a few at once. */
  const READERS = [
    'anonymous',
    'stranger',
    'member',
    'crew',
    'owner',
    'covering',
    'elsewhere',
    'noRead',
    'revoked',
    'leaver',
    'formerCrew',
  ];

  /**
   * Which of the readers walk a search's pages by cursor: the first of those whose listings show
   * the same (status and things); the others, reaching that view another way (a credential, a
   * membership left, the admin role), are compared in one page. Every reader's results are compared
   * with their listings; the paging, which follows the results, once for each view.
   */
  function pagers(names: string[], view: (name: string) => Seen): Set<string> {
    const first = new Map<string, string>();
    for (const name of names) {
      const { status, things } = view(name);
      const signature = `${status} ${[...things.keys()].sort().join(' ')}`;
      if (!first.has(signature)) first.set(signature, name);
    }
    return new Set(first.values());
  }

  describe('in one space, as every reader', () => {
    it.each(QUERIES)('q=%j finds exactly what the listings show', async (q) => {
      const paging = Object.fromEntries(
        [open, closed].map((space) => [space.id, pagers(READERS, (name) => seen[name][space.id])]),
      );
      await inPool(
        READERS.flatMap((name) =>
          [open, closed].map((space) => async () => {
            const reader = readers[name];
            const listings = seen[name][space.id];
            const label = `${reader.name} in ${space === open ? 'the open' : 'the closed'} space, q=${JSON.stringify(q)}`;
            const search = await searchAll(
              reader,
              `/v1/spaces/${space.id}/search?q=${encodeURIComponent(q)}`,
              paging[space.id].has(name),
            );
            expect({ label, status: search.status }).toEqual({ label, status: listings.status });
            if (listings.status !== 200) return;
            const expected = expectedIn(listings.things, q);
            expect({ label, found: compare(search.results, expected, q, label) }).toEqual({
              label,
              found: [...expected.keys()].sort(),
            });
          }),
        ),
      );
    });
  });

  describe('across the spaces, as every signed-in reader with read:posts', () => {
    it.each(QUERIES)('q=%j finds exactly what the listings of their spaces show', async (q) => {
      const names = ['stranger', 'member', 'crew', 'owner', 'covering', 'elsewhere', 'leaver', 'formerCrew'];
      const theirs = (name: string) => {
        const mine = new Map<string, Listed>();
        for (const spaceId of memberOf[name])
          for (const [entry, thing] of seen[name][spaceId].things) mine.set(entry, thing);
        return mine;
      };
      const paging = pagers(names, (name) => ({ status: 200, things: theirs(name) }));
      await inPool(
        names.map((name) => async () => {
          const reader = readers[name];
          const label = `${reader.name} across spaces, q=${JSON.stringify(q)}`;
          const expected = expectedIn(theirs(name), q);
          const search = await searchAll(reader, `/v1/search?q=${encodeURIComponent(q)}`, paging.has(name));
          expect({ label, status: search.status }).toEqual({ label, status: 200 });
          expect({ label, found: compare(search.results, expected, q, label) }).toEqual({
            label,
            found: [...expected.keys()].sort(),
          });
        }),
      );
    });
  });

  describe('types narrows the kinds, as readers of each view', () => {
    it.each(['posts', 'comments', 'pages,events', 'posts,comments'])('types=%s', async (types) => {
      const kinds = types.split(',').map((type) => type.slice(0, -1));
      await inPool(
        ['anonymous', 'stranger', 'member', 'crew', 'elsewhere'].flatMap((name) =>
          ['zephyr', 'lantern marigold ', 'ripple'].map((q) => async () => {
            const reader = readers[name];
            const label = `${reader.name} in the open space, q=${JSON.stringify(q)}, types=${types}`;
            const expected = new Map(
              [...expectedIn(seen[name][open.id].things, q)].filter(([, thing]) =>
                kinds.includes(thing.type),
              ),
            );
            const search = await searchAll(
              reader,
              `/v1/spaces/${open.id}/search?q=${encodeURIComponent(q)}&types=${types}`,
            );
            expect({ label, found: compare(search.results, expected, q, label) }).toEqual({
              label,
              found: [...expected.keys()].sort(),
            });
          }),
        ),
      );
    });
  });

  it('across the spaces: anonymous is 401, without read:posts 403, as the feed', async () => {
    expect((await readers.anonymous.get('/v1/search?q=zephyr')).status).toBe(
      (await readers.anonymous.get('/v1/feed')).status,
    );
    expect((await readers.noRead.get('/v1/search?q=zephyr')).status).toBe(
      (await readers.noRead.get('/v1/feed')).status,
    );
    expect((await readers.revoked.get('/v1/search?q=zephyr')).status).toBe(
      (await readers.revoked.get('/v1/feed')).status,
    );
  });

  it('the corpus is what the listings say, so the comparisons above are not vacuous', () => {
    const titles = (name: string, type: Kind) =>
      [...seen[name][open.id].things.values()]
        .filter((thing) => thing.type === type)
        .map((thing) => thing.fields[0])
        .sort();
    const count = (name: string, spaceId: string, type: Kind) =>
      [...seen[name][spaceId].things.values()].filter((thing) => thing.type === type).length;
    // Each reader of the open space sees more than the one before.
    const order = ['anonymous', 'stranger', 'member', 'crew'];
    order.slice(1).forEach((name, index) => {
      expect(seen[name][open.id].things.size).toBeGreaterThan(seen[order[index]][open.id].things.size);
    });
    expect(seen.owner[open.id].things.size).toBe(seen.crew[open.id].things.size);
    // Readers share views, so searches are compared both walked by cursor and in one page.
    expect(pagers(READERS, (name) => seen[name][open.id]).size).toBeGreaterThan(1);
    expect(pagers(READERS, (name) => seen[name][open.id]).size).toBeLessThan(READERS.length);
    expect(seen.covering[open.id].things.size).toBe(seen.member[open.id].things.size);
    expect(seen.formerCrew[open.id].things.size).toBe(seen.member[open.id].things.size);
    expect(seen.leaver[open.id].things.size).toBe(seen.member[open.id].things.size);
    expect(seen.leaver[closed.id].status).toBe(404);
    // Not covering the space: the anonymous posts, and the comments the thread listing shows the grant.
    expect(count('elsewhere', open.id, 'post')).toBe(count('anonymous', open.id, 'post'));
    expect(count('elsewhere', open.id, 'comment')).toBeGreaterThan(0);
    expect(count('noRead', open.id, 'comment')).toBe(0);
    // A revoked credential reads the anonymous projection of the optional-auth listings, no thread.
    expect(count('revoked', open.id, 'post')).toBe(count('anonymous', open.id, 'post'));
    expect(count('revoked', open.id, 'comment')).toBe(0);
    expect(seen.revoked[closed.id].status).toBe(404);
    expect(count('anonymous', open.id, 'comment')).toBe(0);
    // Enabled pages and public, not ended events; in the space with a public profile only.
    expect(titles('anonymous', 'page')).toEqual([
      'Heron page',
      'Marigold garden',
      'Rippled glass',
      'Zephyr guide',
    ]);
    // Not the ended event, the open-ended one of 39 days ago, the finished series, members' or drafts.
    expect(titles('member', 'event')).toEqual([
      'Heron night',
      'Lantern parade',
      'Lantern series',
      'Weekly zephyr circle',
      'Zephyr night',
      'Zephyr under way',
    ]);
    expect(seen.anonymous[closed.id].status).toBe(404);
    expect(count('member', closed.id, 'post')).toBe(2);
    expect(count('member', closed.id, 'page') + count('member', closed.id, 'event')).toBe(0);
  });
});
