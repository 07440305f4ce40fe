import { Response } from 'supertest';
import { legacyImage, pngBytes, spaceUpload, UNKNOWN_MEDIA } from '../../support/media-uploads';
import {
  addMember,
  bootSpaces,
  Caller,
  count,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  publicSpace,
  SpacesTestApp,
  walk,
} from './support';

interface Topic {
  id: string;
  name: string;
  description: string | null;
}

interface PageItem {
  id: string;
  slug: string;
  title: string;
  sortOrder: number;
  updatedAt: string;
}

const GROUP_A = `group_${'a'.repeat(32)}`;

describe('space administration: site, topics, pages, and their public reads (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  /** The callers every admin route refuses: 403 on a public space, the one 404 on a private one. */
  async function outsiders(spaceId: string): Promise<{ member: Caller; admin: Caller; stranger: Caller }> {
    const member = t.caller();
    const admin = t.caller();
    // One after the other: a new invite of the owner revokes the last one.
    await addMember(owner, spaceId, member);
    await addMember(owner, spaceId, admin);
    expectStatus(await owner.put(`/spaces/${spaceId}/members/${admin.did}`, { role: 'admin' }), 200);
    return { member, admin, stranger: t.caller() };
  }

  /** Who may call an admin route: admins (and the owner); members 403; strangers 403 or 404. */
  async function expectAdminsOnly(
    call: (caller: Caller, spaceId: string) => Promise<Response>,
    okStatus: number,
  ): Promise<void> {
    // The spaces are independent: set up and checked side by side.
    const [open, hidden, deleted] = await Promise.all([
      publicSpace(owner),
      createSpace(owner).then((space) => space.id),
      publicSpace(owner),
    ]);
    const checkIn = async (spaceId: string, strangerStatus: 403 | 404) => {
      const { member, admin, stranger } = await outsiders(spaceId);
      expectStatus(await call(member, spaceId), 403);
      const refused = await call(stranger, spaceId);
      if (strangerStatus === 404) expectNotFound(refused);
      else expectStatus(refused, 403);
      expectStatus(await call(t.anonymous, spaceId), 401);
      expectStatus(await call(admin, spaceId), okStatus);
    };
    await Promise.all([checkIn(open, 403), checkIn(hidden, 404)]);
    expectStatus(await owner.delete(`/spaces/${deleted}`), 204);
    expectNotFound(await call(owner, deleted));
    expectNotFound(await call(owner, `space_${'0'.repeat(32)}`));
    expectNotFound(await call(owner, 'makers'));
  }

  const spaceRow = async (id: string) =>
    (await t.dataSource.query('SELECT * FROM spaces WHERE id = $1', [id.slice('space_'.length)]))[0];

  describe('PUT /spaces/{id}/site', () => {
    it('changes only the members sent and answers the space record', async () => {
      const id = await publicSpace(owner);
      const header = await legacyImage(t, owner, 'header.png');
      const response = await owner.put(`/spaces/${id}/site`, {
        siteMode: 'posts',
        subscribeEnabled: true,
        category: '  Arts   AND crafts ',
        links: [
          { url: 'https://example.org/a', label: ' Shop ', description: 'Things we sell' },
          { url: 'http://example.org/b', label: '', description: '  ' },
        ],
        discoveryOptIn: true,
        headerId: header,
      });
      expectStatus(response, 200);
      expect(response.body).toMatchObject({
        id,
        siteMode: 'posts',
        subscribeEnabled: true,
        category: 'arts and crafts',
        links: [
          { url: 'https://example.org/a', label: 'Shop', description: 'Things we sell' },
          { url: 'http://example.org/b', label: null, description: null },
        ],
        discoveryOptIn: true,
        bannerId: header,
        role: 'owner',
        memberCount: 1,
      });
      const partial = await owner.put(`/spaces/${id}/site`, { subscribeEnabled: false });
      expectStatus(partial, 200);
      expect(partial.body).toMatchObject({
        siteMode: 'posts',
        subscribeEnabled: false,
        category: 'arts and crafts',
        discoveryOptIn: true,
      });
      const cleared = await owner.put(`/spaces/${id}/site`, { category: '   ', headerId: null, links: [] });
      expectStatus(cleared, 200);
      expect(cleared.body).toMatchObject({ category: null, bannerId: null, links: [] });
      expectStatus(await owner.put(`/spaces/${id}/site`, { category: 'Music' }), 200);
      expect((await owner.put(`/spaces/${id}/site`, { category: null })).body.category).toBeNull();
    });

    it('refuses bad bodies with details and changes nothing', async () => {
      const id = await publicSpace(owner);
      expectStatus(await owner.put(`/spaces/${id}/site`, { category: 'keep', siteMode: 'posts' }), 200);
      const before = await spaceRow(id);
      const cases: [Record<string, unknown>, string][] = [
        [{}, ''],
        [{ siteMode: 'landing' }, 'siteMode'],
        [{ siteMode: null }, 'siteMode'],
        [{ subscribeEnabled: 'yes' }, 'subscribeEnabled'],
        [{ subscribeEnabled: null }, 'subscribeEnabled'],
        [{ discoveryOptIn: 1 }, 'discoveryOptIn'],
        [{ category: 7 }, 'category'],
        [{ category: 'x'.repeat(65) }, 'category'],
        [{ links: 'https://example.org' }, 'links'],
        [{ links: null }, 'links'],
        [{ links: [{ url: 'ftp://example.org' }] }, 'links.0.url'],
        [{ links: [{ url: 'https://example.org', label: 'x'.repeat(101) }] }, 'links.0.label'],
        [{ links: [{ url: 'https://example.org', extra: 1 }] }, 'links.0.extra'],
        [{ links: Array.from({ length: 21 }, (_, i) => ({ url: `https://example.org/${i}` })) }, 'links'],
        [{ headerId: 'media_123' }, 'headerId'],
        [{ siteMode: 'posts', isPublic: false }, 'isPublic'],
      ];
      for (const [body, path] of cases) expectInvalid(await owner.put(`/spaces/${id}/site`, body), path);
      expect(await spaceRow(id)).toEqual(before);
    });

    it('is for admins', async () => {
      await expectAdminsOnly(
        (caller, id) => caller.put(`/spaces/${id}/site`, { subscribeEnabled: true }),
        200,
      );
    });
  });

  describe('topics', () => {
    it('creates, changes and deletes topics; the public reads show public ones by name, then id', async () => {
      const id = await publicSpace(owner);
      const create = (body: Record<string, unknown>) => owner.post(`/spaces/${id}/topics`, body);
      const banana = await create({ name: 'banana', access: 'public' });
      expectStatus(banana, 201);
      expect(banana.body).toEqual({
        id: expect.stringMatching(/^topic_[0-9a-f]{32}$/),
        spaceId: id,
        name: 'banana',
        description: null,
        access: 'public',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const apple = (await create({ name: '  Apple ', description: 'Red and green', access: 'public' })).body;
      expect(apple.name).toBe('Apple');
      const cherry = (await create({ name: 'cherry', description: '', access: 'public' })).body;
      expect(cherry.description).toBeNull();
      const members = (await create({ name: 'Members corner', access: 'members' })).body;
      const signedIn = (await create({ name: 'Signed in', access: 'signedIn' })).body;
      const [groupA, groupB] = await Promise.all(
        ['A', 'B'].map(
          async (name) => (await owner.post(`/spaces/${id}/groups`, { name })).body.id as string,
        ),
      );
      const groups = await create({ name: 'Inner circle', access: { groups: [groupA, groupB] } });
      expectStatus(groups, 201);
      expect(groups.body.access).toEqual({ groups: [groupA, groupB] });

      const publicOrder = ['Apple', 'banana', 'cherry'];
      for (const limit of [1, 2, 20]) {
        const { forward, backward } = await walk<Topic>(t.anonymous, `/v1/spaces/${id}/topics`, limit);
        expect(forward.map((topic) => topic.name)).toEqual(publicOrder);
        expect(backward).toEqual(forward);
      }
      const listed = (await t.anonymous.get(`/v1/spaces/${id}/topics`)).body.items;
      expect(listed[0]).toEqual({ id: apple.id, name: 'Apple', description: 'Red and green' });
      expect((await t.anonymous.get(`/v1/spaces/${id}/topics/${apple.id}`)).body).toEqual(listed[0]);
      for (const hidden of [members, signedIn, groups.body]) {
        expectNotFound(await t.anonymous.get(`/v1/spaces/${id}/topics/${hidden.id}`));
      }

      // Admins list every topic, whatever its access, in the same order.
      const all = await walk<Topic & { access: unknown }>(owner, `/spaces/${id}/topics`, 2);
      expect(all.forward.map((topic) => topic.name)).toEqual([
        'Apple',
        'banana',
        'cherry',
        'Inner circle',
        'Members corner',
        'Signed in',
      ]);

      // PUT: name and access replaced, description kept when omitted, cleared by null.
      const changed = await owner.put(`/spaces/${id}/topics/${apple.id}`, {
        name: 'Zucchini',
        access: 'members',
      });
      expectStatus(changed, 200);
      expect(changed.body).toMatchObject({
        id: apple.id,
        name: 'Zucchini',
        description: 'Red and green',
        access: 'members',
      });
      expectNotFound(await t.anonymous.get(`/v1/spaces/${id}/topics/${apple.id}`));
      const reopened = await owner.put(`/spaces/${id}/topics/${apple.id}`, {
        name: 'Zucchini',
        description: null,
        access: 'public',
      });
      expect(reopened.body.description).toBeNull();
      expect(
        (await t.anonymous.get(`/v1/spaces/${id}/topics`)).body.items.map((topic: Topic) => topic.name),
      ).toEqual(['banana', 'cherry', 'Zucchini']);

      expectStatus(await owner.delete(`/spaces/${id}/topics/${banana.body.id}`), 204);
      expectNotFound(await t.anonymous.get(`/v1/spaces/${id}/topics/${banana.body.id}`));
      expectNotFound(await owner.delete(`/spaces/${id}/topics/${banana.body.id}`));
      expectNotFound(
        await owner.put(`/spaces/${id}/topics/${banana.body.id}`, { name: 'x', access: 'public' }),
      );
      // The name is free again once the topic is deleted.
      expectStatus(await create({ name: 'Banana', access: 'public' }), 201);
    });

    it('keeps names unique in a space, in any case and spacing', async () => {
      const id = await publicSpace(owner);
      expectStatus(await owner.post(`/spaces/${id}/topics`, { name: 'Book  Club', access: 'public' }), 201);
      const taken = await owner.post(`/spaces/${id}/topics`, { name: 'book club', access: 'members' });
      expectStatus(taken, 409);
      expect(taken.body.code).toBe('E_CONFLICT');
      const other = (await owner.post(`/spaces/${id}/topics`, { name: 'Other', access: 'public' })).body;
      expectStatus(
        await owner.put(`/spaces/${id}/topics/${other.id}`, { name: 'BOOK CLUB', access: 'public' }),
        409,
      );
      const elsewhere = await publicSpace(owner);
      expectStatus(
        await owner.post(`/spaces/${elsewhere}/topics`, { name: 'Book Club', access: 'public' }),
        201,
      );
    });

    it('refuses bad bodies with details and stores nothing', async () => {
      const id = await publicSpace(owner);
      const topic = (await owner.post(`/spaces/${id}/topics`, { name: 'Keep', access: 'public' })).body;
      const before = await count(t.dataSource, 'space_topics');
      const cases: [Record<string, unknown>, string][] = [
        [{ access: 'public' }, 'name'],
        [{ name: '   ', access: 'public' }, 'name'],
        [{ name: 'x'.repeat(101), access: 'public' }, 'name'],
        [{ name: 5, access: 'public' }, 'name'],
        [{ name: 'ok' }, 'access'],
        [{ name: 'ok', access: 'everyone' }, 'access'],
        [{ name: 'ok', access: null }, 'access'],
        [{ name: 'ok', access: ['public'] }, 'access'],
        [{ name: 'ok', access: { groups: [] } }, 'access'],
        [{ name: 'ok', access: { groups: ['group_123'] } }, 'access'],
        [{ name: 'ok', access: { groups: [GROUP_A, GROUP_A] } }, 'access'],
        [{ name: 'ok', access: { groups: [GROUP_A], tier: 'x' } }, 'access'],
        [
          {
            name: 'ok',
            access: { groups: Array.from({ length: 21 }, (_, i) => `group_${String(i).padStart(32, '0')}`) },
          },
          'access',
        ],
        [{ name: 'ok', access: { members: true } }, 'access'],
        [{ name: 'ok', description: 'x'.repeat(1001), access: 'public' }, 'description'],
        [{ name: 'ok', access: 'public', sortOrder: 1 }, 'sortOrder'],
      ];
      for (const [body, path] of cases) {
        const created = await owner.post(`/spaces/${id}/topics`, body);
        expectInvalid(created, path);
        expectInvalid(await owner.put(`/spaces/${id}/topics/${topic.id}`, body), path);
      }
      expect(await count(t.dataSource, 'space_topics')).toBe(before);
      expect((await t.anonymous.get(`/v1/spaces/${id}/topics/${topic.id}`)).body.name).toBe('Keep');
    });

    it('refuses groups of another space or unknown ones (400 at the member), storing nothing (0020-a-topics-groups-are-groups-of-its-space)', async () => {
      const id = await publicSpace(owner);
      const other = await publicSpace(owner);
      const own = (await owner.post(`/spaces/${id}/groups`, { name: 'Own' })).body.id as string;
      const foreign = (await owner.post(`/spaces/${other}/groups`, { name: 'Foreign' })).body.id as string;
      const topic = (await owner.post(`/spaces/${id}/topics`, { name: 'Keep', access: { groups: [own] } }))
        .body;
      const before = await count(t.dataSource, 'space_topics');
      for (const groups of [[foreign], [own, GROUP_A]]) {
        const body = { name: 'Crew', access: { groups } };
        for (const response of [
          await owner.post(`/spaces/${id}/topics`, body),
          await owner.put(`/spaces/${id}/topics/${topic.id}`, body),
        ]) {
          expectStatus(response, 400);
          expect(response.body.details).toEqual([
            { path: `access.groups.${groups.length - 1}`, message: 'not a group of this space' },
          ]);
        }
      }
      expect(await count(t.dataSource, 'space_topics')).toBe(before);
      const kept = (await owner.get(`/spaces/${id}/topics`)).body.items.find(
        (item: { id: string }) => item.id === topic.id,
      );
      expect(kept).toMatchObject({ name: 'Keep', access: { groups: [own] } });
    });

    it('answers the one 404 for unknown, malformed and other spaces’ topics', async () => {
      const id = await publicSpace(owner);
      const other = await publicSpace(owner);
      const foreign = (await owner.post(`/spaces/${other}/topics`, { name: 'Theirs', access: 'public' }))
        .body;
      const hidden = (await createSpace(owner)).id;
      const hiddenTopic = (await owner.post(`/spaces/${hidden}/topics`, { name: 'Secret', access: 'public' }))
        .body;
      for (const topicId of [
        foreign.id,
        `topic_${'0'.repeat(32)}`,
        'topic_1',
        foreign.id.toUpperCase(),
        `page_${foreign.id.slice(6)}`,
      ]) {
        expectNotFound(await t.anonymous.get(`/v1/spaces/${id}/topics/${topicId}`));
        expectNotFound(await owner.put(`/spaces/${id}/topics/${topicId}`, { name: 'x', access: 'public' }));
        expectNotFound(await owner.delete(`/spaces/${id}/topics/${topicId}`));
      }
      // A public topic of a space without a public profile is hidden like the space.
      expectNotFound(await t.anonymous.get(`/v1/spaces/${hidden}/topics/${hiddenTopic.id}`));
      expectNotFound(await t.anonymous.get(`/v1/spaces/${hidden}/topics`));
      expect((await t.anonymous.get(`/v1/spaces/${other}/topics/${foreign.id}`)).body.name).toBe('Theirs');
    });

    it('is for admins', async () => {
      let n = 0;
      await expectAdminsOnly(
        (caller, id) => caller.post(`/spaces/${id}/topics`, { name: `t${n++}`, access: 'public' }),
        201,
      );
      await expectAdminsOnly((caller, id) => caller.get(`/spaces/${id}/topics`), 200);
      const id = await publicSpace(owner);
      const topic = (await owner.post(`/spaces/${id}/topics`, { name: 'Guarded', access: 'public' })).body;
      const { member, stranger } = await outsiders(id);
      for (const caller of [member, stranger]) {
        expectStatus(
          await caller.put(`/spaces/${id}/topics/${topic.id}`, { name: 'x', access: 'public' }),
          403,
        );
        expectStatus(await caller.delete(`/spaces/${id}/topics/${topic.id}`), 403);
      }
      expect((await t.anonymous.get(`/v1/spaces/${id}/topics/${topic.id}`)).body.name).toBe('Guarded');
    });
  });

  describe('pages', () => {
    it('creates pages with slugs from titles, serves enabled ones by sortOrder then id, by id or slug', async () => {
      const id = await publicSpace(owner);
      const create = (body: Record<string, unknown>) => owner.post(`/spaces/${id}/pages`, body);
      const about = await create({ title: 'Über uns & Co.', body: '# About\nWe make.', sortOrder: 2 });
      expectStatus(about, 201);
      expect(about.body).toEqual({
        id: expect.stringMatching(/^page_[0-9a-f]{32}$/),
        spaceId: id,
        slug: 'uber-uns-co',
        title: 'Über uns & Co.',
        body: '# About\nWe make.',
        coverId: null,
        sortOrder: 2,
        enabled: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const again = (await create({ title: 'Über uns, Co', body: 'second' })).body;
      expect(again.slug).toBe('uber-uns-co-2');
      expect(again.sortOrder).toBe(0);
      const symbols = (await create({ title: '!!!', body: '', sortOrder: 2 })).body;
      expect(symbols.slug).toBe('page');
      const cover = await legacyImage(t, owner, 'cover.png');
      const rules = (
        await create({
          title: 'Rules',
          slug: 'house-rules',
          body: 'Be kind',
          sortOrder: -5,
          coverId: cover,
        })
      ).body;
      expect(rules).toMatchObject({ slug: 'house-rules', coverId: cover, sortOrder: -5 });
      const draft = (await create({ title: 'Draft', body: 'not yet', enabled: false, sortOrder: 1 })).body;

      const item = (page: PageItem) => ({
        id: page.id,
        slug: page.slug,
        title: page.title,
        sortOrder: page.sortOrder,
        updatedAt: page.updatedAt,
      });
      // sortOrder ascending; the two pages at sortOrder 2 by id.
      const tied = [about.body, symbols].sort((a, b) => (a.id < b.id ? -1 : 1));
      const expected = [rules, again, ...tied].map(item);
      for (const limit of [1, 2, 20]) {
        const { forward, backward } = await walk<PageItem>(t.anonymous, `/v1/spaces/${id}/pages`, limit);
        expect(forward).toEqual(expected);
        expect(backward).toEqual(expected);
      }
      for (const reference of [about.body.id, 'uber-uns-co']) {
        const page = await t.anonymous.get(`/v1/spaces/${id}/pages/${reference}`);
        expectStatus(page, 200);
        expect(page.body).toEqual({ ...item(about.body), body: '# About\nWe make.', bodyMedia: [] });
      }
      for (const reference of [draft.id, draft.slug]) {
        expectNotFound(await t.anonymous.get(`/v1/spaces/${id}/pages/${reference}`));
      }
      // Admins see every page, disabled ones too.
      const all = await walk<PageItem & { enabled: boolean }>(owner, `/spaces/${id}/pages`, 2);
      expect(all.forward.map((page) => page.id)).toEqual([
        rules.id,
        again.id,
        draft.id,
        ...tied.map((p) => p.id),
      ]);
    });

    it('serves a page cover and the media of its attachment:// tokens; refuses foreign or unready ids', async () => {
      const id = await publicSpace(owner);
      const cover = await legacyImage(t, owner, 'cover.png');
      const inline = await spaceUpload(t, owner, id, {
        filename: 'inline.png',
        contentType: 'image/png',
        bytes: await pngBytes(20, 10),
      });
      const theirs = await legacyImage(t, t.caller(), 'theirs.png');
      const body = `See ![x](attachment://${inline}) twice: attachment://${inline}`;
      const created = await owner.post(`/spaces/${id}/pages`, { title: 'Gallery', body, coverId: cover });
      expectStatus(created, 201);
      const page = await t.anonymous.get(`/v1/spaces/${id}/pages/gallery`);
      expectStatus(page, 200);
      expect(page.body.cover).toEqual({
        id: cover,
        filename: 'cover.png',
        url: `http://api.plat.test/cdn/${cover}/cover.png`,
        contentType: 'image/png',
        contentLength: expect.any(Number),
        width: 40,
        height: 30,
        blurHash: expect.any(String),
      });
      expect(page.body.bodyMedia).toEqual([
        expect.objectContaining({
          id: inline,
          url: `http://api.plat.test/cdn/${inline}/inline.png`,
          width: 20,
        }),
      ]);
      expectStatus(await t.anonymous.get(new URL(page.body.cover.url).pathname), 200);

      for (const [request, path] of [
        [{ coverId: theirs }, 'coverId'],
        [{ coverId: UNKNOWN_MEDIA }, 'coverId'],
        [{ body: `attachment://${theirs}` }, 'body'],
        // A token names media of this space: a legacy upload has none.
        [{ body: `attachment://${cover}` }, 'body'],
      ] as const) {
        expectInvalid(await owner.post(`/spaces/${id}/pages`, { title: 'Bad', body: 'x', ...request }), path);
      }
      expect((await owner.get(`/spaces/${id}/pages`)).body.items).toHaveLength(1);
    });

    it('changes pages: slug kept unless sent, disabling hides, null clears the cover; deletes', async () => {
      const id = await publicSpace(owner);
      const cover = await legacyImage(t, owner, 'faq.png');
      const page = (
        await owner.post(`/spaces/${id}/pages`, {
          title: 'FAQ',
          body: 'v1',
          coverId: cover,
        })
      ).body;
      const renamed = await owner.put(`/spaces/${id}/pages/${page.id}`, { title: 'Questions', body: 'v2' });
      expectStatus(renamed, 200);
      expect(renamed.body).toMatchObject({
        id: page.id,
        slug: 'faq',
        title: 'Questions',
        body: 'v2',
        coverId: cover,
        enabled: true,
      });
      expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(page.updatedAt));
      const moved = await owner.put(`/spaces/${id}/pages/${page.id}`, {
        title: 'Questions',
        body: 'v3',
        slug: 'questions',
        coverId: null,
        sortOrder: 9,
        enabled: false,
      });
      expect(moved.body).toMatchObject({ slug: 'questions', coverId: null, sortOrder: 9, enabled: false });
      expectNotFound(await t.anonymous.get(`/v1/spaces/${id}/pages/questions`));
      expectNotFound(await t.anonymous.get(`/v1/spaces/${id}/pages/faq`));
      expect((await t.anonymous.get(`/v1/spaces/${id}/pages`)).body.items).toEqual([]);
      expectStatus(
        await owner.put(`/spaces/${id}/pages/${page.id}`, { title: 'Questions', body: 'v3', enabled: true }),
        200,
      );
      expect((await t.anonymous.get(`/v1/spaces/${id}/pages/questions`)).body.body).toBe('v3');

      const other = (await owner.post(`/spaces/${id}/pages`, { title: 'Other', body: 'x' })).body;
      const clash = await owner.put(`/spaces/${id}/pages/${other.id}`, {
        title: 'Other',
        body: 'x',
        slug: 'questions',
      });
      expectStatus(clash, 409);
      expectStatus(
        await owner.post(`/spaces/${id}/pages`, { title: 'New', body: 'x', slug: 'questions' }),
        409,
      );
      // Another space may use the same slug.
      const elsewhere = await publicSpace(owner);
      expectStatus(
        await owner.post(`/spaces/${elsewhere}/pages`, { title: 'Q', body: 'x', slug: 'questions' }),
        201,
      );

      expectStatus(await owner.delete(`/spaces/${id}/pages/${page.id}`), 204);
      expectNotFound(await t.anonymous.get(`/v1/spaces/${id}/pages/${page.id}`));
      expectNotFound(await owner.delete(`/spaces/${id}/pages/${page.id}`));
      expectStatus(
        await owner.post(`/spaces/${id}/pages`, { title: 'New', body: 'x', slug: 'questions' }),
        201,
      );
    });

    it('refuses bad bodies with details and stores nothing', async () => {
      const id = await publicSpace(owner);
      const page = (await owner.post(`/spaces/${id}/pages`, { title: 'Keep', body: 'kept' })).body;
      const before = await count(t.dataSource, 'space_pages');
      const cases: [Record<string, unknown>, string][] = [
        [{ body: 'x' }, 'title'],
        [{ title: '  ', body: 'x' }, 'title'],
        [{ title: 'x'.repeat(201), body: 'x' }, 'title'],
        [{ title: 'ok' }, 'body'],
        [{ title: 'ok', body: null }, 'body'],
        [{ title: 'ok', body: 'x'.repeat(100_001) }, 'body'],
        [{ title: 'ok', body: 'x', slug: 'Not A Slug' }, 'slug'],
        [{ title: 'ok', body: 'x', slug: 'under_score' }, 'slug'],
        [{ title: 'ok', body: 'x', slug: '-edge-' }, 'slug'],
        [{ title: 'ok', body: 'x', slug: null }, 'slug'],
        [{ title: 'ok', body: 'x', slug: 'a'.repeat(101) }, 'slug'],
        [{ title: 'ok', body: 'x', sortOrder: 1.5 }, 'sortOrder'],
        [{ title: 'ok', body: 'x', sortOrder: '3' }, 'sortOrder'],
        [{ title: 'ok', body: 'x', sortOrder: 1_000_001 }, 'sortOrder'],
        [{ title: 'ok', body: 'x', enabled: 'no' }, 'enabled'],
        [{ title: 'ok', body: 'x', enabled: null }, 'enabled'],
        [{ title: 'ok', body: 'x', coverId: 'cover.png' }, 'coverId'],
        [{ title: 'ok', body: 'x', draft: true }, 'draft'],
      ];
      for (const [body, path] of cases) {
        expectInvalid(await owner.post(`/spaces/${id}/pages`, body), path);
        expectInvalid(await owner.put(`/spaces/${id}/pages/${page.id}`, body), path);
      }
      expect(await count(t.dataSource, 'space_pages')).toBe(before);
      expect((await t.anonymous.get(`/v1/spaces/${id}/pages/${page.id}`)).body).toMatchObject({
        title: 'Keep',
        body: 'kept',
      });
    });

    it('answers the one 404 for unknown, malformed, disabled and other spaces’ pages', async () => {
      const id = await publicSpace(owner);
      const other = await publicSpace(owner);
      const foreign = (
        await owner.post(`/spaces/${other}/pages`, { title: 'Theirs', body: 'x', slug: 'theirs' })
      ).body;
      for (const reference of [
        foreign.id,
        'theirs',
        `page_${'0'.repeat(32)}`,
        'page_1',
        foreign.id.toUpperCase(),
        'Theirs',
        `topic_${foreign.id.slice(5)}`,
        'a%20b',
      ]) {
        expectNotFound(await t.anonymous.get(`/v1/spaces/${id}/pages/${reference}`));
      }
      for (const reference of [foreign.id, 'theirs', 'page_1']) {
        expectNotFound(await owner.put(`/spaces/${id}/pages/${reference}`, { title: 'x', body: 'x' }));
        expectNotFound(await owner.delete(`/spaces/${id}/pages/${reference}`));
      }
      expect((await t.anonymous.get(`/v1/spaces/${other}/pages/theirs`)).body.id).toBe(foreign.id);
      const hidden = (await createSpace(owner)).id;
      const hiddenPage = (await owner.post(`/spaces/${hidden}/pages`, { title: 'Secret', body: 'x' })).body;
      expectNotFound(await t.anonymous.get(`/v1/spaces/${hidden}/pages/${hiddenPage.id}`));
      expectNotFound(await t.anonymous.get(`/v1/spaces/${hidden}/pages`));
    });

    it('is for admins', async () => {
      let n = 0;
      await expectAdminsOnly(
        (caller, id) => caller.post(`/spaces/${id}/pages`, { title: `p${n++}`, body: 'x' }),
        201,
      );
      await expectAdminsOnly((caller, id) => caller.get(`/spaces/${id}/pages`), 200);
      const id = await publicSpace(owner);
      const page = (await owner.post(`/spaces/${id}/pages`, { title: 'Guarded', body: 'x' })).body;
      const { member, stranger } = await outsiders(id);
      for (const caller of [member, stranger]) {
        expectStatus(await caller.put(`/spaces/${id}/pages/${page.id}`, { title: 'x', body: 'x' }), 403);
        expectStatus(await caller.delete(`/spaces/${id}/pages/${page.id}`), 403);
      }
      expect((await t.anonymous.get(`/v1/spaces/${id}/pages/${page.id}`)).body.title).toBe('Guarded');
    });
  });
});
