import { statementsDuring, naming } from '../../support/statements';
import { Actor } from '../../support/actors';
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
} from './support';

/** A timed public event body in the future; `overrides` replace members. */
const eventBody = (overrides: Record<string, unknown> = {}) => ({
  title: 'Open workshop',
  type: 'attend',
  mode: 'place',
  isAllDay: false,
  startsAt: '2099-01-14T17:00:00Z',
  timeZone: 'Europe/Berlin',
  visibility: 'public',
  ...overrides,
});

describe('entityLinks name events (api-spec.md "Full post", docs/decisions/0155-entity-links-to-events.md)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let space: { id: string; did: string };
  let other: { id: string; did: string };
  let hidden: { id: string; did: string };
  let topic: string;
  let siteOf: (spaceId: string) => Promise<string>;

  const newEvent = async (admin: Actor, spaceId: string, body: Record<string, unknown> = {}) => {
    const response = await admin.post(`/spaces/${spaceId}/events`, eventBody(body));
    expectStatus(response, 201);
    return response.body.id as string;
  };

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member] = await Promise.all([person(t), person(t)]);
    expectStatus(await owner.signUp('links-owner'), 201);
    space = await newSpace(owner, 'Linking');
    other = await newSpace(owner, 'Elsewhere');
    hidden = await newSpace(owner, 'Hidden');
    await makePublic(owner, space.id);
    await makePublic(owner, other.id);
    await admit(owner, space.id, member);
    topic = await newTopic(owner, space.id, 'General', 'public');
    siteOf = async (spaceId) => {
      const topicId = await newTopic(owner, spaceId, `T${Math.random()}`, 'public');
      const post = await newPost(owner, spaceId, { topic: topicId, body: 'x' });
      return (post.canonicalUri as string).split('/post/')[0];
    };
  });

  afterAll(() => t?.close());

  it('a public event resolves with its title; members-only, draft, ended and deleted ones do not', async () => {
    const site = await siteOf(space.id);
    const open = await newEvent(owner, space.id, { title: 'Spring meetup' });
    const members = await newEvent(owner, space.id, { title: 'Members night', visibility: 'members' });
    const draft = await newEvent(owner, space.id, { title: 'Draft', visibility: 'draft' });
    const ended = await newEvent(owner, space.id, { title: 'Long gone', startsAt: '2001-01-01T10:00:00Z' });
    const deleted = await newEvent(owner, space.id, { title: 'Deleted' });
    expectStatus(await owner.delete(`/spaces/${space.id}/events/${deleted}`), 204);

    const body = [open, members, draft, ended, deleted].map((id) => `${site}/event/${id}`).join(' and ');
    const post = await newPost(member, space.id, {
      topic,
      body: `See ${body}, and ${site}/event/${open}/ again`,
    });
    expect(post.entityLinks).toEqual([
      { url: `${site}/event/${open}`, label: 'Spring meetup', kind: 'event' },
    ]);

    // Every viewer alike: the stranger's read of the same post.
    const read = await t.anonymous.get(`/v1/spaces/${space.id}/posts/${post.id}`);
    expectStatus(read, 200);
    expect(read.body.post.entityLinks).toEqual(post.entityLinks);

    const none = await newPost(member, space.id, { topic, body: `Only ${site}/event/${members}` });
    expect(none).not.toHaveProperty('entityLinks');
  });

  it("another space's event resolves under its own address only; a space without a public profile names none", async () => {
    const site = await siteOf(space.id);
    const otherSite = await siteOf(other.id);
    const theirs = await newEvent(owner, other.id, { title: 'Their fair' });
    const secret = await newEvent(owner, hidden.id, { title: 'Secret fair' });
    // A space's address before it has a domain of its own: `space-<hex of its id>`.
    const hiddenSite = site.replace(/space-[0-9a-f]{32}/, hidden.id.replace('_', '-'));
    expect(hiddenSite).not.toBe(site);
    const post = await newPost(member, space.id, {
      topic,
      body: `${site}/event/${theirs} ${otherSite}/event/prefix-${theirs} ${hiddenSite}/event/${secret} [x](${site})`,
    });
    expect(post.entityLinks).toEqual([
      { url: `${otherSite}/event/${theirs}`, label: 'Their fair', kind: 'event' },
      { url: site, label: 'Linking', kind: 'space' },
    ]);
  });

  it('the events of one body are one statement, none for a body naming no event', async () => {
    const site = await siteOf(space.id);
    const events = await Promise.all([1, 2, 3].map((n) => newEvent(owner, space.id, { title: `E${n}` })));
    const post = await newPost(member, space.id, {
      topic,
      body: events.map((id) => `${site}/event/${id}`).join(' '),
    });
    expect((post.entityLinks as { label: string }[]).map((link) => link.label)).toEqual(['E1', 'E2', 'E3']);
    const read = await statementsDuring(() => t.anonymous.get(`/v1/spaces/${space.id}/posts/${post.id}`));
    expect(naming(read, 'events')).toHaveLength(1);
    const plain = await newPost(member, space.id, { topic, body: `${site} only` });
    const none = await statementsDuring(() => t.anonymous.get(`/v1/spaces/${space.id}/posts/${plain.id}`));
    expect(naming(none, 'events')).toEqual([]);
  });
});
