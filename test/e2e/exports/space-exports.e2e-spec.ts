import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import { formatEntityId, newUuid, parseEntityId } from '../../../src/common/ids/entity-id';
import { ExportsService } from '../../../src/exports';
import { SPACE_ARCHIVE_SCHEMAS, schemaPathOf } from '../../../src/exports/domain/archive-format';
import {
  documentCid,
  resolveCurrentKey,
  verifyContentChain,
  verifyIdentityChain,
} from '../../../src/protocol/core';
import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { CapturedLog } from '../../support/log-capture';
import { pngBytes, spaceUpload } from '../../support/media-uploads';
import { admit, makePublic, newSpace, person, promote } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { bootSpaces, expectNotFound, expectStatus, SpacesTestApp } from '../spaces/support';
import { download, exportedSpace, unzip } from './support';

const eventBody = (title: string, visibility: string) => ({
  title,
  type: 'attend',
  mode: 'place',
  isAllDay: false,
  startsAt: '2099-01-14T17:00:00Z',
  timeZone: 'Europe/Berlin',
  visibility,
});

/**
 * Space exports (issue 35 item 4; docs/decisions/0215, 0216): the owner of a space asks for its
 * archive on POST /v1/spaces/{space}/exports, the same durable job builds it, GET shows its state
 * and a signed URL; its JSON files validate against the schemas it carries and hold the space's
 * data as the administration views show it, and nothing of any other space.
 */
describe('space exports (e2e)', () => {
  const log = new CapturedLog();
  let t: SpacesTestApp;
  let owner: Actor;
  let admin: Actor;
  let member: Actor;
  let stranger: Actor;
  let spaceId: string;
  let otherSpaceId: string;
  let exportId: string;
  let mediaId: string;
  let event: Record<string, unknown>;
  const products: Record<string, unknown>[] = [];
  let release: Record<string, unknown>;
  let photo: Buffer;
  const postIds: string[] = [];
  const commentIds: string[] = [];

  beforeAll(async () => {
    t = await bootSpaces({ env: { LOG_LEVEL: 'info' }, override: log.install });
    [owner, admin, member, stranger] = await Promise.all([person(t), person(t), person(t), person(t)]);
    expectStatus(await owner.signUp('sx-owner', 'Owner'), 201);
    expectStatus(await admin.signUp('sx-admin', 'Admin'), 201);
    expectStatus(await member.signUp('sx-member', 'Member'), 201);
    expectStatus(await stranger.signUp('sx-stranger', 'Stranger'), 201);
    // A space without a public profile.
    spaceId = (await newSpace(owner, 'Exported')).id;
    await admit(owner, spaceId, admin);
    await promote(owner, spaceId, admin);
    await admit(owner, spaceId, member);
    const open = await newTopic(owner, spaceId, 'Open', 'members');
    const quiet = await newTopic(admin, spaceId, 'Quiet', 'members');
    expectStatus(
      await owner.post(`/spaces/${spaceId}/pages`, { title: 'About us', slug: 'about', body: 'Who we are.' }),
      201,
    );
    photo = await pngBytes(40, 30);
    mediaId = await spaceUpload(t, member, spaceId, {
      filename: 'our logo.png',
      contentType: 'image/png',
      bytes: photo,
    });
    const hello = { topic: open, title: 'Hello', body: 'member says hi', attachments: [mediaId] };
    postIds.push((await newPost(member, spaceId, hello)).id);
    postIds.push((await newPost(owner, spaceId, { topic: quiet, body: 'owner posts too' })).id);
    for (const [author, body] of [
      [owner, 'welcome'],
      [admin, 'hi from the admin'],
    ] as const) {
      const comment = await author.post(`/v1/spaces/${spaceId}/posts/${postIds[0]}/comments`, { body });
      expectStatus(comment, 201);
      commentIds.push(comment.body.id as string);
    }
    const created = await owner.post(`/spaces/${spaceId}/events`, eventBody('Members meetup', 'members'));
    expectStatus(created, 201);
    event = created.body as Record<string, unknown>;
    for (const body of [
      {
        name: 'Hidden shirt',
        published: false,
        prices: [
          { type: 'one-time', currency: 'EUR', amount: 2500 },
          { type: 'recurring', currency: 'EUR', amount: 500, interval: 'month', archived: true },
        ],
      },
      { name: 'Record', published: true, prices: [{ type: 'one-time', currency: 'EUR', amount: 1200 }] },
    ]) {
      const product = await owner.post(`/spaces/${spaceId}/products`, body);
      expectStatus(product, 201);
      products.push(product.body as Record<string, unknown>);
    }
    const released = await owner.post(`/spaces/${spaceId}/releases`, {
      title: 'First Record',
      credits: [{ name: 'Ada', role: 'producer' }],
      productIds: [products[1].id, products[0].id],
      published: true,
    });
    expectStatus(released, 201);
    release = released.body as Record<string, unknown>;
    // Another space, of the stranger: nothing of it may reach the archive.
    otherSpaceId = (await newSpace(stranger, 'Elsewhere')).id;
    const elsewhere = await newTopic(stranger, otherSpaceId, 'Elsewhere topic', 'members');
    const otherPost = await newPost(stranger, otherSpaceId, {
      topic: elsewhere,
      body: 'secret of elsewhere',
    });
    expectStatus(
      await stranger.post(`/v1/spaces/${otherSpaceId}/posts/${otherPost.id}/comments`, {
        body: 'elsewhere comment',
      }),
      201,
    );
  });

  afterAll(() => t?.close());

  it('needs an identity proof', async () => {
    expect((await request(t.http).post(`/v1/spaces/${spaceId}/exports`)).status).toBe(401);
    expect((await request(t.http).get(`/v1/spaces/${spaceId}/exports`)).status).toBe(401);
  });

  it('refuses a non-owner member (403) and a stranger to a private space (the 404), storing nothing', async () => {
    const before = (await t.dataSource.query('SELECT count(*)::int AS n FROM exports')) as { n: number }[];
    for (const someone of [admin, member]) {
      const refused = await someone.post(`/v1/spaces/${spaceId}/exports`);
      expectStatus(refused, 403);
      expect(refused.body.code).toBe('E_FORBIDDEN');
      expectStatus(await someone.get(`/v1/spaces/${spaceId}/exports`), 403);
    }
    expectNotFound(await stranger.post(`/v1/spaces/${spaceId}/exports`));
    expectNotFound(await stranger.get(`/v1/spaces/${spaceId}/exports`));
    expectNotFound(await owner.post('/v1/spaces/space_nothex/exports'));
    expectNotFound(await owner.post(`/v1/spaces/${formatEntityId('space', newUuid())}/exports`));
    const after = (await t.dataSource.query('SELECT count(*)::int AS n FROM exports')) as { n: number }[];
    expect(after[0].n).toBe(before[0].n);
  });

  it('builds the space’s archive for its owner; its files validate and hold the space’s data only', async () => {
    const started = await owner.post(`/v1/spaces/${spaceId}/exports`);
    expectStatus(started, 202);
    expect(Object.keys(started.body).sort()).toEqual(['createdAt', 'id', 'state']);
    expect(started.body.state).toBe('queued');
    exportId = started.body.id as string;

    const ready = await eventually(
      () => owner.get(`/v1/spaces/${spaceId}/exports/${exportId}`),
      (response) => response.body.state === 'ready' || response.body.state === 'failed',
      60_000,
    );
    expectStatus(ready, 200);
    expect(ready.body.state).toBe('ready');
    expect(typeof ready.body.expiresAt).toBe('string');
    const url = ready.body.url as string;
    expect(url).toMatch(new RegExp(`/v1/exports/${exportId}/archive\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));

    const archive = await download(t, url);
    expectStatus(archive, 200);
    expect(archive.headers['content-type']).toBe('application/zip');
    const files = await unzip(archive.body as Buffer);
    expect(files.get('README')!.toString()).toContain('PLAT space export');

    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const parsed = new Map<string, unknown>();
    for (const file of Object.keys(SPACE_ARCHIVE_SCHEMAS)) {
      expect([file, files.has(file), files.has(schemaPathOf(file))]).toEqual([file, true, true]);
      const data = JSON.parse(files.get(file)!.toString()) as unknown;
      const validate = ajv.compile(JSON.parse(files.get(schemaPathOf(file))!.toString()) as object);
      expect([file, validate(data), validate.errors ?? null]).toEqual([file, true, null]);
      parsed.set(file, data);
    }

    expect(parsed.get('manifest.json')).toMatchObject({
      format: 'plat-space-export',
      space: { id: spaceId },
      requestedBy: owner.did,
      exportId,
    });
    // The settings, topics, pages and members as the owner's administration views show them.
    const settings = await owner.get(`/spaces/${spaceId}`);
    expectStatus(settings, 200);
    expect(parsed.get('space.json')).toEqual(settings.body);
    const topics = await owner.get(`/spaces/${spaceId}/topics`);
    expect(parsed.get('topics.json')).toEqual(topics.body.items);
    expect((parsed.get('topics.json') as { name: string }[]).map((topic) => topic.name).sort()).toEqual([
      'Open',
      'Quiet',
    ]);
    const pages = await owner.get(`/spaces/${spaceId}/pages`);
    expect(parsed.get('pages.json')).toEqual(pages.body.items);
    expect((parsed.get('pages.json') as { body: string }[]).map((page) => page.body)).toEqual([
      'Who we are.',
    ]);
    const members = await owner.get(`/spaces/${spaceId}/members`);
    expect(parsed.get('members.json')).toEqual(members.body.items);
    expect((parsed.get('members.json') as { did: string }[]).map((row) => row.did).sort()).toEqual(
      [owner.did, admin.did, member.did].sort(),
    );
    // Every live post and comment of the space, any author.
    const posts = parsed.get('posts.json') as { id: string; spaceId: string; body: string }[];
    expect(posts.map((post) => post.id).sort()).toEqual([...postIds].sort());
    expect(posts.find((post) => post.id === postIds[0])).toMatchObject({ body: 'member says hi' });
    const comments = parsed.get('comments.json') as { id: string; postId: string }[];
    expect(comments.map((comment) => comment.id)).toEqual(commentIds);
    expect(comments.every((comment) => comment.postId === postIds[0])).toBe(true);

    // Every event, as its administration record, the cover by id.
    const { cover, ...record } = event;
    expect(cover).toBeNull();
    expect(parsed.get('events.json')).toEqual([{ ...record, coverId: null }]);

    // The store: every live product (unpublished too, every price) and release, as administered.
    const byCover = (record: Record<string, unknown>) => {
      const { cover, ...rest } = record;
      expect(cover).toBeNull();
      return { ...rest, coverId: null };
    };
    const byId = (a: Record<string, unknown>, b: Record<string, unknown>) =>
      String(parseEntityId('product', a.id as string)).localeCompare(
        String(parseEntityId('product', b.id as string)),
      );
    expect(parsed.get('products.json')).toEqual(products.map(byCover).sort(byId));
    expect(parsed.get('releases.json')).toEqual([byCover(release)]);

    // The space's files, any uploader's, with their bytes.
    const media = parsed.get('media.json') as { id: string; path: string; size: number; spaceId: string }[];
    expect(media).toEqual([
      expect.objectContaining({
        id: mediaId,
        spaceId,
        path: `media/${mediaId}/our_logo.png`,
        size: photo.length,
      }),
    ]);
    expect(files.get(media[0].path)!.equals(photo)).toBe(true);
    expect([...files.keys()].filter((path) => path.startsWith('media/'))).toEqual([media[0].path]);

    // Nothing of the other space anywhere in the archive.
    const everything = [...files.values()].map((bytes) => bytes.toString()).join('\n');
    for (const trace of [
      otherSpaceId,
      'secret of elsewhere',
      'elsewhere comment',
      'Elsewhere topic',
      'elsewhere.png',
    ]) {
      expect([trace, everything.includes(trace)]).toEqual([trace, false]);
    }

    // Audit lines: requested, ready, downloaded, naming who, which space and when.
    const audit = log.lines().filter((line) => typeof line.audit === 'string' && line.export === exportId);
    expect(audit.map((line) => line.audit)).toEqual([
      'export.requested',
      'export.ready',
      'export.downloaded',
    ]);
    expect(
      audit.every(
        (line) => line.owner === owner.did && line.space === spaceId && typeof line.at === 'string',
      ),
    ).toBe(true);

    // The space's listing shows it; the owner's personal listing and routes do not.
    const listing = await owner.get(`/v1/spaces/${spaceId}/exports`);
    expectStatus(listing, 200);
    expect(listing.body.items.map((item: { id: string }) => item.id)).toEqual([exportId]);
    expect((await owner.get('/v1/exports')).body.items).toEqual([]);
    expectNotFound(await owner.get(`/v1/exports/${exportId}`));
  });

  it('refuses a second export of the space while one is queued or running: 409, nothing stored', async () => {
    const running = newUuid();
    const space = parseEntityId('space', spaceId)!;
    await t.dataSource.query(
      "INSERT INTO exports (id, owner_did, space_id, state, created_at, updated_at) VALUES ($1, $2, $3, 'running', now(), now())",
      [running, owner.did, space],
    );
    try {
      const second = await owner.post(`/v1/spaces/${spaceId}/exports`);
      expectStatus(second, 409);
      expect(second.body).toEqual({ code: 'E_CONFLICT', message: 'An export is already in progress' });
      const rows = (await t.dataSource.query('SELECT id FROM exports WHERE space_id = $1', [
        space,
      ])) as unknown[];
      expect(rows).toHaveLength(2);
      // A personal export of the same person is another matter.
      const personal = await owner.post('/v1/exports');
      expectStatus(personal, 202);
    } finally {
      await t.dataSource.query("UPDATE exports SET state = 'failed' WHERE id = $1", [running]);
    }
  });

  it('refuses a stranger to a space with a public profile with 403, as the administration routes', async () => {
    await makePublic(stranger, otherSpaceId);
    const refused = await owner.post(`/v1/spaces/${otherSpaceId}/exports`);
    expectStatus(refused, 403);
    expect(refused.body.code).toBe('E_FORBIDDEN');
    expectStatus(await owner.get(`/v1/spaces/${otherSpaceId}/exports`), 403);
    expect((await stranger.get(`/v1/spaces/${otherSpaceId}/exports`)).body.items).toEqual([]);
  });

  it('fails the export of a space deleted before its build, storing no archive', async () => {
    const id = newUuid();
    await t.dataSource.query(
      "INSERT INTO exports (id, owner_did, space_id, state, created_at, updated_at) VALUES ($1, $2, $3, 'queued', now(), now())",
      [id, owner.did, newUuid()],
    );
    const service = t.app.get(ExportsService);
    await expect(service.build(id, { attempt: 1, last: false })).rejects.toThrow();
    await expect(service.build(id, { attempt: 3, last: true })).rejects.toThrow();
    const [row] = (await t.dataSource.query('SELECT state, archive_key FROM exports WHERE id = $1', [
      id,
    ])) as {
      state: string;
      archive_key: string | null;
    }[];
    expect(row).toEqual({ state: 'failed', archive_key: null });
  });

  it('answers the constant 404 for another space’s export, a malformed and an unknown id', async () => {
    // The stranger owns the other space: its routes never show this space's export.
    expectNotFound(await stranger.get(`/v1/spaces/${otherSpaceId}/exports/${exportId}`));
    expect((await stranger.get(`/v1/spaces/${otherSpaceId}/exports`)).body.items).toEqual([]);
    expectNotFound(await owner.get(`/v1/spaces/${spaceId}/exports/export_nothex`));
    expectNotFound(await owner.get(`/v1/spaces/${spaceId}/exports/${formatEntityId('export', newUuid())}`));
    // The export read on a space its owner does not own: 403 as a member, the 404 as a stranger.
    expectStatus(await admin.get(`/v1/spaces/${spaceId}/exports/${exportId}`), 403);
    expectNotFound(await stranger.get(`/v1/spaces/${spaceId}/exports/${exportId}`));
    const bad = await owner.get(`/v1/spaces/${spaceId}/exports?limit=0`);
    expectStatus(bad, 400);
    expect(bad.body.code).toBe('E_INVALID_REQUEST');
  });

  it('carries the space’s chains: they verify offline and hold every public post as posts.json has it', async () => {
    // docs/decisions/0235: a public space, two public posts (one edited, one folded), one for members.
    const publicId = (await newSpace(owner, 'Chained')).id;
    const news = await newTopic(owner, publicId, 'News', 'public');
    const inside = await newTopic(owner, publicId, 'Inside', 'members');
    await makePublic(owner, publicId);
    const long = await newPost(owner, publicId, { topic: news, title: 'Long one', body: 'first draft' });
    expectStatus(await owner.patch(`/v1/spaces/${publicId}/posts/${long.id}`, { body: 'edited body' }), 200);
    await newPost(owner, publicId, { topic: news, body: 'above the fold<!--fold-->below it' });
    await newPost(owner, publicId, { topic: inside, body: 'members only' });

    const files = await unzip(await exportedSpace(t, owner, publicId));
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const read = <T>(file: string): T => {
      const data = JSON.parse(files.get(file)!.toString()) as unknown;
      const validate = ajv.compile(JSON.parse(files.get(schemaPathOf(file))!.toString()) as object);
      expect([file, validate(data), validate.errors ?? null]).toEqual([file, true, null]);
      return data as T;
    };
    type Log = { cid: string; jwsToken: string }[];
    const identity = read<{ did: string; operations: Log }>('chains/identity.json');
    const signers = read<{ did: string; operations: Log }[]>('chains/signers.json');
    const content = read<
      {
        contentId: string;
        headCid: string;
        isDeleted: boolean;
        document: Record<string, unknown> | null;
        operations: Log;
      }[]
    >('chains/content.json');
    const posts =
      read<{ title: string | null; body: string; contentId: string | null; headCid: string | null }[]>(
        'posts.json',
      );
    const readme = files.get('README')!.toString();
    for (const file of ['chains/identity.json', 'chains/content.json', 'chains/signers.json']) {
      expect(readme).toContain(file);
    }

    // The space's identity chain and its signers' verify with the protocol's rules, offline.
    const space = (await owner.get(`/spaces/${publicId}`)).body as { did: string };
    expect(identity.did).toBe(space.did);
    expect(signers.map((chain) => chain.did)).not.toContain(space.did);
    const states = new Map(
      [identity, ...signers].map((chain) => {
        const verified = verifyIdentityChain(
          chain.operations.map((op) => op.jwsToken),
          { expectedDid: chain.did },
        );
        expect(verified.operations.map((op) => op.cid)).toEqual(chain.operations.map((op) => op.cid));
        return [chain.did, verified.state] as const;
      }),
    );
    // Every content chain verifies with those keys; its document is the one its head commits to.
    const byId = new Map<string, (typeof content)[number]>();
    for (const chain of content) {
      const verified = await verifyContentChain(
        chain.operations.map((op) => op.jwsToken),
        {
          resolveKey: (kid) => resolveCurrentKey(states.get(kid.split('#')[0])!, kid).publicKey,
          isRevoked: () => false,
        },
      );
      expect([verified.state.contentId, verified.state.headCid, verified.state.isDeleted]).toEqual([
        chain.contentId,
        chain.headCid,
        chain.isDeleted,
      ]);
      expect(chain.document).not.toBeNull();
      expect(documentCid(chain.document!)).toBe(verified.state.currentDocumentCID);
      byId.set(chain.contentId, chain);
    }
    // Every public post's chain, at the post's head, holding its title and above-fold body; the
    // members' post has none. The space's public profile chain is there too.
    const publicPosts = posts.filter((post) => post.contentId !== null);
    expect(publicPosts).toHaveLength(2);
    expect(posts.find((post) => post.body === 'members only')).toMatchObject({ contentId: null });
    for (const post of publicPosts) {
      const chain = byId.get(post.contentId!)!;
      expect(chain.headCid).toBe(post.headCid);
      expect(chain.document).toMatchObject({ $schema: 'https://schemas.dfos.com/post/v1' });
      expect([chain.document!.title, chain.document!.body]).toEqual([
        post.title ?? undefined,
        post.body.split('<!--fold-->')[0],
      ]);
    }
    const edited = byId.get(publicPosts.find((post) => post.title === 'Long one')!.contentId!)!;
    expect(edited.operations).toHaveLength(2);
    expect(edited.document!.body).toBe('edited body');
    const profiles = content.filter(
      (chain) => chain.document?.$schema !== 'https://schemas.dfos.com/post/v1',
    );
    expect(profiles).toHaveLength(1);
    expect(profiles[0].document).toMatchObject({ name: 'Chained' });
  });
});
