import { OriginIdentities } from '../../../src/protocol/publishing/domain/origin-identities';
import { legacyImage, pngBytes, spaceUpload } from '../../support/media-uploads';
import {
  addMember,
  bootSpaces,
  Caller,
  createSpace,
  expectInvalid,
  expectNotFound,
  expectStatus,
  newDid,
  publicSpace,
  setActivity,
  SpacesTestApp,
  walk,
} from './support';

interface Card {
  id: string;
  category?: string;
}

const CARD_KEYS = [
  'description',
  'did',
  'displayName',
  'domain',
  'id',
  'links',
  'memberCountSummary',
  'avatarUrl',
  'verifiedDomain',
].sort();

describe('public space reads: GET /v1/spaces and GET /v1/spaces/{space} (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Caller;

  beforeAll(async () => {
    t = await bootSpaces();
    owner = t.caller();
  });

  afterAll(async () => {
    await t.close();
  });

  /** The ids every listing of the test's spaces would show, in directory order (from the database). */
  async function directoryOrder(where = 'TRUE', params: unknown[] = []): Promise<string[]> {
    const rows: { id: string }[] = await t.dataSource.query(
      `SELECT replace(id::text, '-', '') AS id FROM spaces
       WHERE is_public AND deleted_at IS NULL AND last_activity_at IS NOT NULL AND ${where}
       ORDER BY last_activity_at DESC, id DESC`,
      params,
    );
    return rows.map((row) => `space_${row.id}`);
  }

  describe('GET /v1/spaces/{space}', () => {
    it('serves the public profile by id, subdomain, DID and normalized domain, field by field', async () => {
      const id = await publicSpace(owner, 'open');
      expectStatus(await owner.put(`/spaces/${id}/domain`, { domain: 'makers' }), 200);
      expectStatus(
        await owner.put(`/spaces/${id}/site`, {
          siteMode: 'posts',
          subscribeEnabled: true,
          links: [
            { url: 'https://makers.example/', label: 'Home', description: 'Our site' },
            { url: 'https://b.example' },
          ],
        }),
        200,
      );
      const { did } = (await owner.get(`/spaces/${id}`)).body;
      const response = await t.anonymous.get(`/v1/spaces/${id}`);
      expectStatus(response, 200);
      expect(response.headers['cache-control']).toBe('no-store');
      const space = response.body;
      const head = await t.app.get(OriginIdentities).headOf(did);
      expect(space).toEqual({
        id,
        did,
        domain: 'makers',
        displayName: 'Makers',
        description: 'A place to make things',
        avatarUrl: null,
        headerUrl: null,
        links: [
          { url: 'https://makers.example/', label: 'Home', description: 'Our site' },
          { url: 'https://b.example', label: null, description: null },
        ],
        joinMode: 'open',
        siteMode: 'posts',
        subscribeEnabled: true,
        memberCountSummary: 'a handful of members',
        privatePostCountSummary: 'no private posts',
        eventCountSummary: 'no events',
        mediaUploadCountSummary: 'no media uploads',
        verifiedDomain: null,
        protocol: {
          headOpCid: head,
          profile: { contentId: expect.any(String), headOpCid: expect.any(String) },
        },
        createdAt: expect.any(String),
      });
      // Key order follows api-spec.md's table.
      expect(Object.keys(space)).toEqual([
        'id',
        'did',
        'domain',
        'displayName',
        'description',
        'avatarUrl',
        'headerUrl',
        'links',
        'joinMode',
        'siteMode',
        'subscribeEnabled',
        'memberCountSummary',
        'privatePostCountSummary',
        'eventCountSummary',
        'mediaUploadCountSummary',
        'verifiedDomain',
        'protocol',
        'createdAt',
      ]);
      for (const reference of ['makers', did, `space-${id.slice('space_'.length)}`]) {
        const same = await t.anonymous.get(`/v1/spaces/${reference}`);
        expectStatus(same, 200);
        expect(same.body).toEqual(space);
      }
      // A signed request gets the same viewer-independent projection (no role, nothing more).
      expect((await owner.get(`/v1/spaces/${id}`)).body).toEqual(space);
    });

    it('words the member count and never shows exact numbers or private settings', async () => {
      const id = await publicSpace(owner, 'open');
      for (let i = 0; i < 10; i++) await addMember(owner, id, t.caller());
      const space = (await t.anonymous.get(`/v1/spaces/${id}`)).body;
      expect(space.memberCountSummary).toBe('dozens of members');
      const text = JSON.stringify(space);
      for (const secret of [
        'memberCount"',
        'isPublic',
        'lastActivityAt',
        'discoveryOptIn',
        'role',
        'claimedDomain',
        owner.did!,
      ]) {
        expect(text).not.toContain(secret);
      }
      await t.dataSource.query('UPDATE spaces SET member_count = 1500 WHERE id = $1', [id.slice(6)]);
      expect((await t.anonymous.get(`/v1/spaces/${id}`)).body.memberCountSummary).toBe(
        'thousands of members',
      );
    });

    it('shows application questions only in application mode with questions, and category only when filed', async () => {
      const id = await publicSpace(owner, 'application');
      const path = `/v1/spaces/${id}`;
      expect((await t.anonymous.get(path)).body).not.toHaveProperty('applicationQuestions');
      expect((await t.anonymous.get(path)).body).not.toHaveProperty('category');
      const questions = [
        { question: 'Why?', isRequired: true },
        { question: 'Anything else?', isRequired: false },
      ];
      expectStatus(await owner.put(`/spaces/${id}/application-settings`, { questions }), 200);
      expectStatus(await owner.put(`/spaces/${id}/site`, { category: '  Board   GAMES ' }), 200);
      const withBoth = (await t.anonymous.get(path)).body;
      expect(withBoth.applicationQuestions).toEqual(questions);
      expect(withBoth.category).toBe('board games');
      expect(Object.keys(withBoth).indexOf('applicationQuestions')).toBeLessThan(
        Object.keys(withBoth).indexOf('category'),
      );
      expectStatus(
        await owner.put(`/spaces/${id}/public-config`, { isPublic: true, joinMode: 'closed' }),
        200,
      );
      expectStatus(await owner.put(`/spaces/${id}/site`, { category: null }), 200);
      const neither = (await t.anonymous.get(path)).body;
      expect(neither).not.toHaveProperty('applicationQuestions');
      expect(neither).not.toHaveProperty('category');
      expect(neither.joinMode).toBe('closed');
    });

    it('answers the same 404 bytes for private, deleted, unknown, malformed and foreign ids', async () => {
      const hidden = await createSpace(owner);
      const deleted = await publicSpace(owner);
      const deletedDid = (await owner.get(`/spaces/${deleted}`)).body.did;
      expectStatus(await owner.put(`/spaces/${deleted}/domain`, { domain: 'gone-space' }), 200);
      expectStatus(await owner.delete(`/spaces/${deleted}`), 204);
      const references = [
        hidden.id,
        hidden.did,
        `space-${hidden.id.slice('space_'.length)}`,
        deleted,
        deletedDid,
        'gone-space',
        `space_${'0'.repeat(32)}`,
        'space_123',
        hidden.id.toUpperCase(),
        hidden.id.replace('space_', 'post_'),
        hidden.id.replace('space_', 'topic_'),
        newDid(),
        'did:plat:nope',
        'no-such-space',
        'x',
        '%20',
      ];
      for (const reference of references) {
        for (const suffix of ['', '/topics', '/pages', `/topics/topic_${'1'.repeat(32)}`, '/pages/about']) {
          expectNotFound(await t.anonymous.get(`/v1/spaces/${reference}${suffix}`));
        }
      }
      // Members of the private space get the same 404 on the anonymous routes.
      expectNotFound(await owner.get(`/v1/spaces/${hidden.id}`));
    });
  });

  describe('GET /v1/spaces', () => {
    it('lists discovery cards of public live spaces with activity, most recent first, to the end and back', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await publicSpace(owner, 'closed'));
      const base = Date.parse('2030-01-01T00:00:00.000Z');
      // Two share a timestamp: the id breaks the tie, descending.
      await setActivity(t.dataSource, ids[0], new Date(base + 3000));
      await setActivity(t.dataSource, ids[1], new Date(base + 1000));
      await setActivity(t.dataSource, ids[2], new Date(base + 1000));
      await setActivity(t.dataSource, ids[3], new Date(base + 2000));
      await setActivity(t.dataSource, ids[4], null);
      const hidden = await createSpace(owner);
      const deleted = await publicSpace(owner);
      expectStatus(await owner.delete(`/spaces/${deleted}`), 204);

      const expected = await directoryOrder();
      expect(expected.slice(0, 4)).toEqual([ids[0], ids[3], ...[ids[1], ids[2]].sort().reverse()]);
      for (const limit of [1, 2, 3, 100]) {
        const { forward, backward } = await walk<Card>(t.anonymous, '/v1/spaces', limit);
        expect(forward.map((card) => card.id)).toEqual(expected);
        expect(backward.map((card) => card.id)).toEqual(expected);
      }
      const all = (await t.anonymous.get('/v1/spaces?limit=100')).body;
      expect(all.nextCursor).toBeNull();
      const listed = all.items.map((card: Card) => card.id);
      for (const absent of [ids[4], hidden.id, deleted]) expect(listed).not.toContain(absent);
      // Default page size is 20.
      const first = (await t.anonymous.get('/v1/spaces')).body;
      expect(first.items.length).toBe(Math.min(20, expected.length));
    });

    it('serves cards without a protocol block or anything private; category only when filed', async () => {
      const id = await publicSpace(owner, 'open');
      expectStatus(
        await owner.put(`/spaces/${id}/site`, { links: [{ url: 'https://x.example', label: 'X' }] }),
        200,
      );
      await setActivity(t.dataSource, id, new Date('2031-01-01T00:00:00.000Z'));
      const [card] = (await t.anonymous.get('/v1/spaces?limit=1')).body.items;
      expect(card).toEqual({
        id,
        did: expect.stringMatching(/^did:plat:/),
        domain: `space-${id.slice('space_'.length)}`,
        displayName: 'Makers',
        description: 'A place to make things',
        avatarUrl: null,
        links: [{ url: 'https://x.example', label: 'X', description: null }],
        memberCountSummary: 'a handful of members',
        verifiedDomain: null,
      });
      expect(Object.keys(card).sort()).toEqual(CARD_KEYS);
      expectStatus(await owner.put(`/spaces/${id}/site`, { category: 'Crafts' }), 200);
      const [filed] = (await t.anonymous.get('/v1/spaces?limit=1')).body.items;
      expect(filed.category).toBe('crafts');
    });

    it('shows the avatar and header as permanent CDN URLs, on the card and the single fetch; counts uploads', async () => {
      const id = await publicSpace(owner, 'open');
      const [avatar, header] = await Promise.all([
        legacyImage(t, owner, 'avatar.png'),
        legacyImage(t, owner, 'header.png'),
      ]);
      const upload = await spaceUpload(t, owner, id, {
        filename: 'a.png',
        contentType: 'image/png',
        bytes: await pngBytes(),
      });
      expectStatus(await owner.put(`/spaces/${id}`, { avatarId: avatar, bannerId: header }), 200);
      await setActivity(t.dataSource, id, new Date('2032-01-01T00:00:00.000Z'));
      const avatarUrl = `http://api.plat.test/cdn/${avatar}/avatar.png`;
      const [card] = (await t.anonymous.get('/v1/spaces?limit=1')).body.items;
      expect(card).toMatchObject({ id, avatarUrl });
      const space = (await t.anonymous.get(`/v1/spaces/${id}`)).body;
      expect(space).toMatchObject({
        avatarUrl,
        headerUrl: `http://api.plat.test/cdn/${header}/header.png`,
        mediaUploadCountSummary: 'a handful of media uploads',
      });
      const image = await t.anonymous.get(new URL(avatarUrl).pathname);
      expectStatus(image, 200);
      expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // A legacy avatar belongs to no space, yet the space shows it: counted as its upload.
      const plain = await publicSpace(owner, 'open');
      expectStatus(await owner.put(`/spaces/${plain}`, { avatarId: avatar }), 200);
      expect((await t.anonymous.get(`/v1/spaces/${plain}`)).body.mediaUploadCountSummary).toBe(
        'a handful of media uploads',
      );
      // The header set by PUT /spaces/{id}/site replaces the banner; an upload of the space serves too.
      expectStatus(await owner.put(`/spaces/${id}/site`, { headerId: upload }), 200);
      expect((await t.anonymous.get(`/v1/spaces/${id}`)).body.headerUrl).toBe(
        `http://api.plat.test/cdn/${upload}/a.png`,
      );
    });

    it('filters by join mode, normalized category, opt-in and recent activity, walking every filter to the end', async () => {
      const now = Date.now();
      const make = async (
        joinMode: 'closed' | 'open' | 'application',
        site: Record<string, unknown>,
        daysAgo: number | null,
      ) => {
        const id = await publicSpace(owner, joinMode);
        if (Object.keys(site).length > 0) expectStatus(await owner.put(`/spaces/${id}/site`, site), 200);
        await setActivity(t.dataSource, id, daysAgo === null ? null : new Date(now - daysAgo * 86_400_000));
        return id;
      };
      await make('open', { category: 'Filter Test', discoveryOptIn: true }, 0.5);
      await make('closed', { category: 'filter   test' }, 2.5);
      await make('application', { category: 'other', discoveryOptIn: true }, 30);
      await make('open', {}, 200);
      await make('open', { category: 'filter test' }, 400);
      await make('open', { category: 'filter test', discoveryOptIn: true }, null);
      await t.dataSource.query(`UPDATE spaces SET join_mode = 'allowlist' WHERE id = $1`, [
        (await make('closed', { discoveryOptIn: true }, 0.9)).slice(6),
      ]);

      const cases: [string, string, unknown[]][] = [
        ['joinMode=open', `join_mode = 'open'`, []],
        ['joinMode=closed', `join_mode = 'closed'`, []],
        ['joinMode=application', `join_mode = 'application'`, []],
        ['joinMode=allowlist', `join_mode = 'allowlist'`, []],
        ['category=%20%20Filter%20%20%20TEST%20', `category = 'filter test'`, []],
        ['category=other', `category = 'other'`, []],
        ['category=nothing-filed-like-this', 'FALSE', []],
        ['category=%20%20%20', 'TRUE', []],
        ['category=', 'TRUE', []],
        ['optedIn=true', 'discovery_opt_in', []],
        ['optedIn=false', 'NOT discovery_opt_in', []],
        ['activeWithinDays=2', `last_activity_at >= $1`, [new Date(now - 2 * 86_400_000)]],
        ['activeWithinDays=2.9', `last_activity_at >= $1`, [new Date(now - 2 * 86_400_000)]],
        ['activeWithinDays=0', `last_activity_at >= $1`, [new Date(now - 86_400_000)]],
        ['activeWithinDays=-7', `last_activity_at >= $1`, [new Date(now - 86_400_000)]],
        ['activeWithinDays=100000', `last_activity_at >= $1`, [new Date(now - 365 * 86_400_000)]],
        ['activeWithinDays=365', `last_activity_at >= $1`, [new Date(now - 365 * 86_400_000)]],
        ['activeWithinDays=Infinity', `last_activity_at >= $1`, [new Date(now - 365 * 86_400_000)]],
        ['activeWithinDays=-Infinity', `last_activity_at >= $1`, [new Date(now - 86_400_000)]],
        [
          'activeWithinDays=2&activeWithinDays=300',
          `last_activity_at >= $1`,
          [new Date(now - 2 * 86_400_000)],
        ],
        // Never rejected: a value that is not a number filters nothing.
        ['activeWithinDays=abc', 'TRUE', []],
        ['activeWithinDays=', 'TRUE', []],
        [
          'joinMode=open&category=filter%20test&optedIn=true&activeWithinDays=1',
          `join_mode = 'open' AND category = 'filter test' AND discovery_opt_in AND last_activity_at >= $1`,
          [new Date(now - 86_400_000)],
        ],
      ];
      for (const [query, where, params] of cases) {
        const expected = await directoryOrder(where, params);
        const { forward, backward } = await walk<Card>(t.anonymous, `/v1/spaces?${query}`, 2);
        expect({ query, ids: forward.map((card) => card.id) }).toEqual({ query, ids: expected });
        expect(backward.map((card) => card.id)).toEqual(expected);
      }
      expect((await directoryOrder(`category = 'filter test'`)).length).toBe(3);
      expect((await directoryOrder(`join_mode = 'allowlist'`)).length).toBe(1);
    });

    it('refuses malformed filters and pagination with 400 and details', async () => {
      const other = (await t.anonymous.get(`/v1/spaces/${await publicSpace(owner)}/topics?limit=1`)).body;
      expect(other.nextCursor === null || typeof other.nextCursor === 'string').toBe(true);
      for (const [query, path] of [
        ['joinMode=paid', 'joinMode'],
        ['joinMode=OPEN', 'joinMode'],
        ['joinMode=open&joinMode=closed', 'joinMode'],
        ['optedIn=yes', 'optedIn'],
        ['optedIn=1', 'optedIn'],
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=2.5', 'limit'],
        ['limit=ten', 'limit'],
        ['sort=newest', 'sort'],
        [`category=${'x'.repeat(1025)}`, 'category'],
      ]) {
        expectInvalid(await t.anonymous.get(`/v1/spaces?${query}`), path);
      }
      for (const query of ['after=garbage', 'before=abc.def', 'after=a&before=b']) {
        const response = await t.anonymous.get(`/v1/spaces?${query}`);
        expectStatus(response, 400);
        expect(response.body.code).toBe('E_INVALID_REQUEST');
      }
      // A cursor of another listing is refused.
      const id = await publicSpace(owner);
      for (const name of ['a', 'b']) {
        expectStatus(await owner.post(`/spaces/${id}/topics`, { name, access: 'public' }), 201);
      }
      const topicCursor = (await t.anonymous.get(`/v1/spaces/${id}/topics?limit=1`)).body.nextCursor;
      expect(typeof topicCursor).toBe('string');
      expectStatus(await t.anonymous.get(`/v1/spaces?after=${encodeURIComponent(topicCursor)}`), 400);
    });
  });
});
