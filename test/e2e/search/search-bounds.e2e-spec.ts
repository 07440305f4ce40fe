import { Response } from 'supertest';
import { Actor } from '../../support/actors';
import {
  bootSpaces,
  expectStatus,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from '../posts/support';

/**
 * The bounds on a search's work (docs/decisions/0185-bounded-search-work.md) as a client sees
 * them: a short last word is a whole word, a lone last word that fills a page as a whole word is
 * read as one, and the last day's hits come before older ones, every hit once when paged.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

const ids = (response: Response): string[] => {
  expectStatus(response, 200);
  return (response.body as { items: { item: { id: string } }[] }).items.map((result) => result.item.id);
};

describe('search bounds (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let space: { id: string };
  let old: string;
  let plural: string;
  const recent: string[] = [];
  const path = (q: string, extra = '') => `/v1/spaces/${space.id}/search?q=${encodeURIComponent(q)}${extra}`;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = await person(t);
    space = await newSpace(owner, 'Search bounds');
    await makePublic(owner, space.id);
    const topic = await newTopic(owner, space.id, 'Public', 'public');
    // Two days before the rest, and more relevant than any of them (the word in its title, thrice).
    old = (await newPost(owner, space.id, { topic, title: 'Quokka quokka', body: 'quokka' })).id;
    t.clock.offsetMs += 2 * DAY_MS;
    plural = (await newPost(owner, space.id, { topic, body: 'two quokkas on the ridge' })).id;
    for (let n = 0; n < 21; n += 1) {
      t.clock.offsetMs += 1000;
      recent.push((await newPost(owner, space.id, { topic, body: `quokka sighting ${n}` })).id);
    }
  });

  afterAll(() => t?.close());

  it('reads a last word shorter than 3 characters as a whole word, not a prefix', async () => {
    expect(ids(await t.anonymous.get(path('two quokkas on the ri')))).toEqual([]);
    expect(ids(await t.anonymous.get(path('two quokkas on the rid')))).toEqual([plural]);
  });

  it('reads a lone last word as the whole word once that alone fills a page, as a prefix while it is rarer', async () => {
    // `quokka` is a whole word in 22 posts: the page is theirs, `quokkas` is not among the hits.
    const whole = [];
    let cursor: string | null = null;
    do {
      const response: Response = await t.anonymous.get(
        path('quokka', `&limit=100${cursor ? `&after=${cursor}` : ''}`),
      );
      whole.push(...ids(response));
      cursor = response.body.nextCursor as string | null;
    } while (cursor);
    expect(whole.sort()).toEqual([old, ...recent].sort());
    // `quokk` is no post's word: the prefix finds all 23.
    expect(ids(await t.anonymous.get(path('quokk', '&limit=100'))).sort()).toEqual(
      [old, plural, ...recent].sort(),
    );
  });

  it("ranks the last day's hits first, then older ones, and pages through every hit once", async () => {
    const first = await t.anonymous.get(path('quokka', '&limit=5'));
    expect(ids(first)).not.toContain(old);
    const seen: string[] = [];
    const pages: Response[] = [];
    let cursor: string | null = null;
    do {
      const response: Response = await t.anonymous.get(
        path('quokka', `&limit=5${cursor ? `&after=${cursor}` : ''}`),
      );
      pages.push(response);
      seen.push(...ids(response));
      cursor = response.body.nextCursor as string | null;
    } while (cursor);
    expect(seen).toHaveLength(22);
    expect(new Set(seen).size).toBe(22);
    // The older post, best by relevance, leads the hits after the last day's.
    expect(seen[21]).toBe(old);
    const back = await t.anonymous.get(
      path('quokka', `&limit=5&before=${pages[4].body.previousCursor as string}`),
    );
    expect(ids(back)).toEqual(seen.slice(15, 20));
  });

  it("reads a last word as the whole word when a page of it is older than the topic's newest posts", async () => {
    // The probe (docs/decisions/0187-whole-word-probe-by-topic.md) looks at a topic's 64 newest
    // posts first; `wombat`'s 22 posts come before 64 without it, so the index's count decides.
    const topic = await newTopic(owner, space.id, 'Burrows', 'public');
    const whole: string[] = [];
    for (let n = 0; n < 22; n += 1) {
      t.clock.offsetMs += 1000;
      whole.push((await newPost(owner, space.id, { topic, body: `wombat burrow ${n}` })).id);
    }
    t.clock.offsetMs += 1000;
    const wombats = (await newPost(owner, space.id, { topic, body: 'three wombats at dusk' })).id;
    for (let n = 0; n < 64; n += 1) {
      t.clock.offsetMs += 1000;
      await newPost(owner, space.id, { topic, body: `burrow survey ${n}` });
    }
    const found = ids(await t.anonymous.get(path('wombat', '&limit=100')));
    expect(found.sort()).toEqual([...whole].sort());
    expect(found).not.toContain(wombats);
    // `wombats` is in one post: rarer than a page, so read as a prefix (itself).
    expect(ids(await t.anonymous.get(path('wombats', '&limit=100')))).toEqual([wombats]);
  });
});
