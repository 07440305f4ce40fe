import { Client } from 'pg';
import { parseEntityId } from '../../../src/common/ids/entity-id';
import { PostCardsService, PostReadabilityService } from '../../../src/posts';
import { Actor } from '../../support/actors';
import { addToGroup, newGroup } from '../memberships/support';
import {
  admit,
  bootSpaces,
  expectStatus,
  Listing,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

/** Every statement sent to PostgreSQL while `run` runs, from anywhere in the process. */
async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const [text] = args as [string | { text: string }];
    sent.push(typeof text === 'string' ? text : text.text);
    return (query as (...all: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await run();
  } finally {
    Client.prototype.query = query;
  }
  return sent;
}

const namingPosts = (statements: string[]) => statements.filter((statement) => /\bposts\b/.test(statement));
const uuid = (kind: 'post' | 'space' | 'topic', wireId: string) => parseEntityId(kind, wireId)!;

/**
 * The posts module's batch reads for other modules (PostCardsService.cardsFor,
 * PostReadabilityService.readableTopicIds), through the booted app on the real database: cards of many
 * posts across spaces as one reader sees them, in one statement on posts, the same cards the
 * listing shows; nothing of what the reader may not read.
 */
describe('posts batch reads (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let crew: Actor;
  let visitor: Actor;
  let spaceA: string;
  let spaceB: string;
  let topics: { open: string; signedIn: string; members: string; crew: string; elsewhere: string };
  let posts: {
    open: string;
    signedIn: string;
    members: string;
    crew: string;
    elsewhere: string;
    gone: string;
  };

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member, crew, visitor] = await Promise.all([person(t), person(t), person(t), person(t)]);
    spaceA = (await newSpace(owner, 'Batch A')).id;
    await makePublic(owner, spaceA);
    spaceB = (await newSpace(owner, 'Batch B')).id;
    for (const someone of [member, crew]) await admit(owner, spaceA, someone);
    const group = await newGroup(owner, spaceA, { name: 'Crew' });
    await addToGroup(owner, spaceA, group.id, crew);
    topics = {
      open: await newTopic(owner, spaceA, 'Open', 'public'),
      signedIn: await newTopic(owner, spaceA, 'Signed in', 'signedIn'),
      members: await newTopic(owner, spaceA, 'Members', 'members'),
      crew: await newTopic(owner, spaceA, 'Crew only', { groups: [group.id] }),
      elsewhere: await newTopic(owner, spaceB, 'Elsewhere', 'members'),
    };
    const write = async (space: string, topic: string, body: string) =>
      (await newPost(owner, space, { topic, title: body, body: `${body}, the body` })).id;
    posts = {
      open: await write(spaceA, topics.open, 'Open post'),
      signedIn: await write(spaceA, topics.signedIn, 'Signed-in post'),
      members: await write(spaceA, topics.members, 'Members post'),
      crew: await write(spaceA, topics.crew, 'Crew post'),
      elsewhere: await write(spaceB, topics.elsewhere, 'Another space'),
      gone: await write(spaceA, topics.open, 'Deleted post'),
    };
    expectStatus(await owner.delete(`/v1/spaces/${spaceA}/posts/${posts.gone}`), 200);
    expectStatus(await member.put(`/v1/spaces/${spaceA}/posts/${posts.open}/upvote`), 200);
  });

  afterAll(() => t?.close());

  const all = () => Object.values(posts).map((id) => uuid('post', id));
  const cardsFor = (reader: Actor | null, ids: string[]) =>
    t.app.get(PostCardsService).cardsFor(reader?.did ?? null, ids);
  const listing = async (reader: Actor | null) => {
    const path = `/v1/spaces/${spaceA}/posts?limit=100`;
    const response = reader ? await reader.get(path) : await t.anonymous.get(path);
    expectStatus(response, 200);
    return (response.body as Listing<{ id: string }>).items;
  };

  it('cards a member reads, with viewer, as the listing shows them; no gated, deleted or other space’s post', async () => {
    const cards = await cardsFor(member, all());
    expect(cards.map((card) => card.id)).toEqual([posts.open, posts.signedIn, posts.members]);
    expect(cards[0].viewer).toEqual({ upvoted: true });
    expect(cards[1].viewer).toEqual({ upvoted: false });
    const listed = await listing(member);
    for (const card of cards) expect(card).toEqual(listed.find((item) => item.id === card.id));
  });

  it('a group topic’s post for the group’s members and the owner only', async () => {
    expect((await cardsFor(crew, [uuid('post', posts.crew)])).map((card) => card.id)).toEqual([posts.crew]);
    expect(await cardsFor(member, [uuid('post', posts.crew)])).toEqual([]);
    const ownerCards = await cardsFor(owner, all());
    expect(ownerCards.map((card) => card.id)).toEqual([
      posts.open,
      posts.signedIn,
      posts.members,
      posts.crew,
      posts.elsewhere,
    ]);
  });

  it('without membership: a visitor the public and signed-in posts, nobody signed in the public ones, no viewer', async () => {
    const seen = await cardsFor(visitor, all());
    expect(seen.map((card) => card.id)).toEqual([posts.open, posts.signedIn]);
    const anonymous = await cardsFor(null, all());
    expect(anonymous.map((card) => card.id)).toEqual([posts.open]);
    for (const card of [...seen, ...anonymous]) expect(card).not.toHaveProperty('viewer');
    expect(anonymous[0]).toEqual((await listing(null)).find((item) => item.id === posts.open));
  });

  it('one statement on posts however many ids (plus one for the authors), none for no id', async () => {
    for (const ids of [all().slice(0, 1), all()]) {
      const statements = await statementsOf(() => cardsFor(member, ids));
      expect(namingPosts(statements)).toHaveLength(1);
    }
    expect(namingPosts(await statementsOf(() => cardsFor(member, [])))).toEqual([]);
  });

  it('readable topic ids across spaces in one statement, none of another space the reader is not in', async () => {
    const readability = t.app.get(PostReadabilityService);
    const spaces = [uuid('space', spaceA), uuid('space', spaceB)];
    const ids = (wire: string[]) => wire.map((id) => uuid('topic', id)).sort();
    let read: string[] = [];
    const statements = await statementsOf(async () => {
      read = await readability.readableTopicIds(member.did, spaces);
    });
    expect(statements.filter((statement) => /\blive_space_topics\b/.test(statement))).toHaveLength(1);
    expect([...read].sort()).toEqual(ids([topics.open, topics.signedIn, topics.members]));
    expect([...(await readability.readableTopicIds(crew.did, spaces))].sort()).toEqual(
      ids([topics.open, topics.signedIn, topics.members, topics.crew]),
    );
    expect([...(await readability.readableTopicIds(owner.did, spaces))].sort()).toEqual(
      ids(Object.values(topics)),
    );
    expect([...(await readability.readableTopicIds(visitor.did, spaces))].sort()).toEqual(
      ids([topics.open, topics.signedIn]),
    );
    expect(await readability.readableTopicIds(null, spaces)).toEqual([uuid('topic', topics.open)]);
    expect(await readability.readableTopicIds(member.did, [])).toEqual([]);
  });
});
