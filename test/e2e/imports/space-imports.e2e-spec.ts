import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import request from 'supertest';
import { ZipFile } from 'yazl';
import { formatEntityId, newUuid } from '../../../src/common/ids/entity-id';
import { RelayIngestService } from '../../../src/protocol';
import { Actor } from '../../support/actors';
import { CapturedLog } from '../../support/log-capture';
import { eventually } from '../../support/eventually';
import { makePublic, newSpace, person } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { expectNotFound, expectStatus, SpacesTestApp } from '../spaces/support';
import { exportedSpace, unzip } from '../exports/support';
import {
  bootMedia,
  FFMPEG_PRESENT,
  jpeg,
  MediaTestApp,
  pathOf,
  png,
  settled as mediaSettled,
  storedFiles,
  truncatedWav,
  withFfmpeg,
} from '../media/support';
import { spaceUpload } from '../../support/media-uploads';
import { MediaStorage } from '../../../src/media/services/storage/media-storage';

const MAX_FILE_BYTES = 65_536;
const MAX_ARCHIVE_BYTES = 1_048_576;

type ExportedIdentity = { did: string; operations: { cid: string; jwsToken: string }[] };
type ExportedContent = {
  contentId: string;
  headCid: string;
  document: Record<string, unknown> | null;
  operations: { cid: string; jwsToken: string }[];
};

async function zipOf(files: Map<string, Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, bytes] of files) zip.addBuffer(bytes, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function postArchive(t: SpacesTestApp, actor: Actor | null, bytes: Buffer) {
  const call = request(t.http).post('/v1/spaces/imports');
  return (actor ? call.set(actor.headers('POST', '/v1/spaces/imports')) : call)
    .set('Content-Type', 'application/zip')
    .send(bytes);
}

/** The bytes served at a URL the service handed out, whatever their type. */
function bytesAt(t: SpacesTestApp, url: string) {
  return request(t.http)
    .get(pathOf(url))
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

/** Every wire id, time, chain and the space's own DID and domain as placeholders: what may differ. */
function comparable(value: unknown, space: { did: string; domain: string }): unknown {
  return JSON.parse(
    JSON.stringify(value)
      .split(space.did)
      .join('<space did>')
      .split(space.domain)
      .join('<space domain>')
      .replace(/[a-z]+_[0-9a-f]{32}/g, '<id>')
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
      // A file's URL is signed until a time of each read.
      .replace(/exp=\d+&sig=[A-Za-z0-9_-]+/g, 'exp=<exp>&sig=<sig>'),
    // New chains: their ids and CIDs are new (their genesis names the new ids and times).
    (key, member: unknown) => (key === 'protocol' ? '<chains>' : member),
  ) as unknown;
}

/**
 * Space imports (issue 35 item 5; docs/decisions/0220, 0221): a space exported from one instance
 * is imported into a second (another database) by the same person, who owns the new space; the
 * second answers the same public reads, ids and times aside. A tampered archive fails the import
 * and stores nothing.
 */
describe('space imports (e2e)', () => {
  const log = new CapturedLog();
  let source: MediaTestApp;
  let target: MediaTestApp;
  let owner: Actor;
  let ownerThere: Actor;
  let strangerThere: Actor;
  let spaceId: string;
  let archive: Buffer;
  let importedSpaceId: string;

  beforeAll(async () => {
    // The first app's logger is the process's (test/support/log-capture.ts): both write to `log`.
    // Two stores too (MEDIA_DIR each): the second serves only the bytes the import copied.
    source = await bootMedia({ env: { LOG_LEVEL: 'info' }, override: log.install });
    target = await bootMedia({
      env: {
        LOG_LEVEL: 'info',
        IMPORT_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
        IMPORT_MAX_ARCHIVE_BYTES: String(MAX_ARCHIVE_BYTES),
        IMPORT_RETRY_BACKOFF_MS: '100',
      },
    });
    owner = await person(source);
    expectStatus(await owner.signUp('im-owner', 'Owner'), 201);
    ownerThere = await Actor.create(target, { identity: owner.identity });
    expectStatus(await ownerThere.signUp('im-owner', 'Owner'), 201);
    strangerThere = await person(target);
    expectStatus(await strangerThere.signUp('im-stranger', 'Stranger'), 201);

    spaceId = (await newSpace(owner, 'Exported')).id;
    const news = await newTopic(owner, spaceId, 'News', 'public');
    const inside = await newTopic(owner, spaceId, 'Inside', 'members');
    // Media (docs/decisions/0231): the space's avatar, a page's cover and inline image, a post's
    // attachments (an image and a text file) and inline image.
    const upload = (filename: string, contentType: string, bytes: Buffer) =>
      spaceUpload(source, owner, spaceId, { filename, contentType, bytes });
    const avatar = await upload('logo.png', 'image/png', await png(32, 32));
    expectStatus(await owner.put(`/spaces/${spaceId}`, { avatarId: avatar }), 200);
    const cover = await upload('cover.jpg', 'image/jpeg', await jpeg(80, 40));
    const map = await upload('map.png', 'image/png', await png(20, 10));
    const photo = await upload('photo.jpg', 'image/jpeg', await jpeg(30, 30));
    const inline = await upload('inline.png', 'image/png', await png(12, 12));
    const notes = await upload('notes.txt', 'text/plain', Buffer.from('opening hours: always\n'));
    for (const page of [
      {
        title: 'About us',
        slug: 'about',
        body: `Who we are. ![where](attachment://${map})`,
        sortOrder: 1,
        coverId: cover,
      },
      { title: 'Rules', slug: 'rules', body: 'Be kind.', sortOrder: 2 },
    ])
      expectStatus(await owner.post(`/spaces/${spaceId}/pages`, page), 201);
    await newPost(owner, spaceId, {
      topic: news,
      title: 'First news',
      body: `We **opened**. ![us](attachment://${inline})`,
      attachments: [photo, notes],
    });
    source.clock.offsetMs += 1000;
    await newPost(owner, spaceId, { topic: news, body: 'A short note with #tag' });
    source.clock.offsetMs += 1000;
    await newPost(owner, spaceId, { topic: inside, body: 'for members only' });
    // The store and events (docs/decisions/0232): prices of each type, a release of two products, a
    // recurring event selling tickets, an all-day one, a members' one and a draft.
    const created = async (path: string, body: object) => {
      const response = await owner.post(`/spaces/${spaceId}/${path}`, body);
      expectStatus(response, 201);
      return response.body.id as string;
    };
    const record = await created('products', {
      name: 'Record',
      published: true,
      coverId: cover,
      prices: [
        { type: 'one-time', currency: 'EUR', amount: 1200 },
        { type: 'pay-what-you-want', currency: 'EUR', amount: 500, suggestedAmount: 800 },
        { type: 'recurring', currency: 'EUR', amount: 300, interval: 'month', archived: true },
      ],
    });
    const shirt = await created('products', {
      name: 'Shirt',
      description: 'Cotton',
      published: false,
      sortOrder: 3,
      prices: [{ type: 'one-time', currency: 'USD', amount: 2500 }],
    });
    await created('releases', {
      title: 'First Record',
      description: 'Our first.',
      coverId: cover,
      credits: [{ name: 'Ada', role: 'producer', did: owner.did }],
      productIds: [record, shirt],
      published: true,
    });
    await created('releases', { title: 'Demo', credits: [], productIds: [], published: false });
    const timed = {
      type: 'attend',
      mode: 'place',
      location: 'The hall',
      isAllDay: false,
      startsAt: '2027-01-14T17:00:00Z',
      endsAt: '2027-01-14T19:00:00Z',
      timeZone: 'Europe/Berlin',
    };
    await created('events', {
      ...timed,
      title: 'Weekly jam',
      rrule: 'FREQ=WEEKLY;BYDAY=TH;COUNT=4',
      coverId: cover,
      requiresTicket: true,
      ticketProductIds: [record],
      visibility: 'public',
    });
    await created('events', {
      title: 'Festival',
      type: 'attend',
      mode: 'place',
      isAllDay: true,
      startDate: '2027-01-20',
      endDate: '2027-01-22',
      visibility: 'public',
    });
    await created('events', { ...timed, title: 'Members night', visibility: 'members' });
    await created('events', { ...timed, title: 'Not yet', type: 'update', mode: null, visibility: 'draft' });
    await makePublic(owner, spaceId, 'open');

    archive = await exportedSpace(source, owner, spaceId);
  });

  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  const settled = (t: SpacesTestApp, actor: Actor, id: string) =>
    eventually(
      () => actor.get(`/v1/spaces/imports/${id}`),
      (response) => response.body.state === 'done' || response.body.state === 'failed',
      60_000,
    );
  const spaceCount = async (t: SpacesTestApp) =>
    ((await t.dataSource.query('SELECT count(*)::int AS n FROM spaces')) as { n: number }[])[0].n;
  const mediaCount = async (t: SpacesTestApp) =>
    ((await t.dataSource.query('SELECT count(*)::int AS n FROM media')) as { n: number }[])[0].n;

  it('needs an identity proof, and an application/zip body', async () => {
    expect((await postArchive(target, null, archive)).status).toBe(401);
    expect(
      (await request(target.http).get(`/v1/spaces/imports/${formatEntityId('import', newUuid())}`)).status,
    ).toBe(401);
    const json = await ownerThere.post('/v1/spaces/imports', { archive: 'no' });
    expectStatus(json, 400);
    expect(json.body.message).toBe('Send the archive as application/zip');
    const empty = await postArchive(target, ownerThere, Buffer.alloc(0));
    expectStatus(empty, 400);
    expect(empty.body.message).toBe('The archive is empty');
  });

  it('refuses an archive over IMPORT_MAX_ARCHIVE_BYTES with 413, storing nothing', async () => {
    const before = (await target.dataSource.query('SELECT count(*)::int AS n FROM imports')) as {
      n: number;
    }[];
    const large = await postArchive(target, ownerThere, Buffer.alloc(MAX_ARCHIVE_BYTES + 1));
    expectStatus(large, 413);
    expect(large.body).toEqual({
      code: 'E_PAYLOAD_TOO_LARGE',
      message: `The archive is larger than ${MAX_ARCHIVE_BYTES} bytes`,
    });
    // Sent chunked, no length announced: refused as the bytes pass the cap, nothing left in the
    // store (docs/decisions/0237).
    const filesBefore = await storedFiles(target);
    const call = request(target.http)
      .post('/v1/spaces/imports')
      .set(ownerThere.headers('POST', '/v1/spaces/imports'))
      .set('Content-Type', 'application/zip');
    for (let sent = 0; sent <= MAX_ARCHIVE_BYTES; sent += 65_536) call.write(Buffer.alloc(65_536));
    const chunked = await call;
    expectStatus(chunked, 413);
    expect(chunked.body.message).toBe(`The archive is larger than ${MAX_ARCHIVE_BYTES} bytes`);
    expect(await storedFiles(target)).toEqual(filesBefore);
    const after = (await target.dataSource.query('SELECT count(*)::int AS n FROM imports')) as {
      n: number;
    }[];
    expect(after[0].n).toBe(before[0].n);
  });

  it('keeps nothing of an upload its client abandons midway', async () => {
    // docs/decisions/0237: the body streams into the store as it comes; cut short, nothing stays.
    const server = target.http as Server;
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const before = [
      await storedFiles(target),
      await target.dataSource.query('SELECT count(*)::int AS n FROM imports'),
    ];
    const call = httpRequest({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      method: 'POST',
      path: '/v1/spaces/imports',
      headers: {
        ...ownerThere.headers('POST', '/v1/spaces/imports'),
        'Content-Type': 'application/zip',
        'Content-Length': String(MAX_ARCHIVE_BYTES),
      },
    });
    call.on('error', () => undefined);
    call.write(Buffer.alloc(MAX_ARCHIVE_BYTES / 2));
    // The bytes reach the store's incoming file before the client goes.
    const receiving = await eventually(
      () => storedFiles(target),
      (files) => files.length > (before[0] as string[]).length,
      10_000,
    );
    expect(receiving.length).toBeGreaterThan((before[0] as string[]).length);
    call.destroy();
    const after = await eventually(
      async () => [
        await storedFiles(target),
        await target.dataSource.query('SELECT count(*)::int AS n FROM imports'),
      ],
      (now) => JSON.stringify(now) === JSON.stringify(before),
      10_000,
    );
    expect(after).toEqual(before);
  });

  let ingestFailed = false;

  it('imports the archive as a new space of the caller; the public reads are the source’s', async () => {
    // The first ingest of the source's chains fails (docs/decisions/0236): the job is retried.
    const ingestion = target.app.get(RelayIngestService);
    const ingest = ingestion.ingest.bind(ingestion);
    const files = await unzip(archive);
    const genesis = (JSON.parse(files.get('chains/identity.json')!.toString()) as ExportedIdentity)
      .operations[0].jwsToken;
    jest.spyOn(ingestion, 'ingest').mockImplementation(async (tokens, options) => {
      if (!ingestFailed && tokens.includes(genesis)) {
        ingestFailed = true;
        throw new Error('the relay is unavailable');
      }
      return ingest(tokens, options);
    });
    const started = await postArchive(target, ownerThere, archive);
    expectStatus(started, 202);
    expect(started.body).toMatchObject({ state: 'queued', finishedAt: null });
    const id = started.body.id as string;
    expect(id).toMatch(/^import_[0-9a-f]{32}$/);
    const done = await settled(target, ownerThere, id);
    expectStatus(done, 200);
    expect(done.body).toMatchObject({ id, state: 'done' });
    const newId = done.body.spaceId as string;
    importedSpaceId = newId;
    // The archive's chains verified first (docs/decisions/0235): the two public posts' and the
    // space profile's.
    const doneLine = log.lines().find((line) => line.import === id && line.audit === 'import.done');
    expect(doneLine).toMatchObject({ chains: 3 });
    expect(newId).toMatch(/^space_[0-9a-f]{32}$/);
    expect(newId).not.toBe(spaceId);

    // Another person's import is the constant 404, as a malformed or unknown id.
    expectNotFound(await strangerThere.get(`/v1/spaces/imports/${id}`));
    expectNotFound(await ownerThere.get('/v1/spaces/imports/import_nothex'));
    expectNotFound(await ownerThere.get(`/v1/spaces/imports/${formatEntityId('import', newUuid())}`));

    const spaceThere = (await target.anonymous.get(`/v1/spaces/${newId}`)).body as {
      did: string;
      domain: string;
    };
    const spaceHere = (await source.anonymous.get(`/v1/spaces/${spaceId}`)).body as {
      did: string;
      domain: string;
    };
    const reads = async (
      t: SpacesTestApp,
      reader: { get(path: string): Promise<request.Response> },
      id: string,
    ) => {
      const space = await reader.get(`/v1/spaces/${id}`);
      const topics = await reader.get(`/v1/spaces/${id}/topics`);
      const pages = await reader.get(`/v1/spaces/${id}/pages`);
      const page = await reader.get(`/v1/spaces/${id}/pages/about`);
      const posts = await reader.get(`/v1/spaces/${id}/posts`);
      const items = posts.body.items as { id: string; title: string | null }[];
      const post = await reader.get(`/v1/spaces/${id}/posts/${items.find((item) => item.title)!.id}`);
      const events = await reader.get(
        `/v1/spaces/${id}/events?from=2027-01-01T00:00:00Z&to=2027-03-01T00:00:00Z`,
      );
      const products = await reader.get(`/v1/spaces/${id}/products`);
      const releases = await reader.get(`/v1/spaces/${id}/releases`);
      for (const response of [events, products, releases]) expectStatus(response, 200);
      // An event by its id; a product or release by its slug.
      const firstOf = (listing: request.Response, kind: string, key: 'id' | 'slug') =>
        reader.get(`/v1/spaces/${id}/${kind}/${(listing.body.items as Record<string, string>[])[0][key]}`);
      const event = await firstOf(events, 'events', 'id');
      const product = await firstOf(products, 'products', 'slug');
      const release = await firstOf(releases, 'releases', 'slug');
      for (const response of [space, topics, pages, page, posts, post, event, product, release])
        expectStatus(response, 200);
      return {
        events: events.body,
        event: event.body,
        products: products.body,
        product: product.body,
        releases: releases.body,
        release: release.body,
        space: space.body,
        topics: topics.body,
        pages: pages.body,
        page: page.body,
        posts: posts.body,
        post: post.body,
      };
    };
    const here = await reads(source, source.anonymous, spaceId);
    const there = await reads(target, target.anonymous, newId);
    expect(comparable(there, spaceThere)).toEqual(comparable(here, spaceHere));
    // As the owner (a member): the members' topic and its post too.
    const ownerHere = await reads(source, owner, spaceId);
    const ownerThereReads = await reads(target, ownerThere, newId);
    expect(comparable(ownerThereReads, spaceThere)).toEqual(comparable(ownerHere, spaceHere));
    // Every topic, whatever its access, as the administration lists them.
    const administered = await ownerThere.get(`/spaces/${newId}/topics`);
    expectStatus(administered, 200);
    const topicsOf = (body: { items: { name: string; access: unknown }[] }) =>
      body.items.map(({ name, access }) => ({ name, access }));
    expect(topicsOf(administered.body)).toEqual(
      topicsOf((await owner.get(`/spaces/${spaceId}/topics`)).body),
    );
    expect(topicsOf(administered.body)).toHaveLength(2);
    expect((ownerThereReads.posts.items as unknown[]).length).toBe(3);
    // What must be equal, spelled out: names, bodies, order, access; the owner is the same person.
    expect((there.topics.items as { name: string }[]).map((topic) => topic.name)).toEqual(['News']);
    expect((there.pages.items as { slug: string }[]).map((page) => page.slug)).toEqual(['about', 'rules']);
    expect(
      (there.posts.items as { body?: string; title: string | null }[]).map((post) => post.title),
    ).toEqual([null, 'First news']);
    expect(there.post).toMatchObject({
      post: { title: 'First news', author: { did: owner.did, username: 'im-owner' } },
    });
    // The inline image's token names the copied file, not the source's.
    const inlineThere = /^We \*\*opened\*\*\. !\[us\]\(attachment:\/\/(media_[0-9a-f]{32})\)$/.exec(
      (there.post as { post: { body: string } }).post.body,
    );
    expect(inlineThere).not.toBeNull();
    expect((here.post as { post: { body: string } }).post.body).not.toContain(inlineThere![1]);
    expect(JSON.stringify(there.post)).toContain(`/cdn/${inlineThere![1]}/inline.png`);
    // The settings as the owner reads them, the same; members are not imported: the owner alone.
    const owned = await ownerThere.get(`/spaces/${newId}`);
    expectStatus(owned, 200);
    expect(comparable(owned.body, spaceThere)).toEqual(
      comparable((await owner.get(`/spaces/${spaceId}`)).body, spaceHere),
    );
    expect(owned.body).toMatchObject({ role: 'owner', isPublic: true, joinMode: 'open', memberCount: 1 });

    // Audit lines: requested and done, naming who, when, and the new space.
    const audit = log
      .lines()
      .filter((line) => typeof line.audit === 'string' && line.import === id)
      .filter((line) => line.audit !== 'import.announced');
    expect(audit.map((line) => line.audit)).toEqual(['import.requested', 'import.done']);
    expect(audit.every((line) => line.owner === owner.did && typeof line.at === 'string')).toBe(true);
    expect(audit[1]).toMatchObject({
      space: newId,
      topics: 2,
      pages: 2,
      posts: 3,
      media: 6,
      products: 2,
      releases: 2,
      events: 4,
    });
    // The store and events as their administration records (drafts, hidden products, archived
    // prices): the new space's own export holds what the source's did, ids and times aside.
    const filesThere = await unzip(await exportedSpace(target, ownerThere, newId));
    const filesHere = await unzip(archive);
    for (const file of ['events.json', 'products.json', 'releases.json']) {
      const json = (files: Map<string, Buffer>) => JSON.parse(files.get(file)!.toString()) as unknown[];
      expect(json(filesHere).length).toBeGreaterThan(1);
      expect(comparable(json(filesThere), spaceThere)).toEqual(comparable(json(filesHere), spaceHere));
    }
    expect((there.events.items as unknown[]).length).toBeGreaterThan(4);
    expect(there.releases.items).toHaveLength(1);

    // The copied files: new ids, uploads of the owner to the new space; the same bytes at the URLs.
    const urlsOf = (reads: typeof here) =>
      JSON.stringify(reads).match(/https?:\/\/[^"]+\/(cdn|media-files)\/media_[0-9a-f]{32}\/[^"]+/g) ?? [];
    const urlsHere = [...new Set(urlsOf(ownerHere))];
    const urlsThere = [...new Set(urlsOf(ownerThereReads))];
    expect(urlsHere).toHaveLength(6);
    expect(urlsThere).toHaveLength(6);
    for (const [index, url] of urlsThere.entries()) {
      expect(url).not.toBe(urlsHere[index]);
      const served = await bytesAt(target, url);
      const original = await bytesAt(source, urlsHere[index]);
      expectStatus(served, 200);
      expectStatus(original, 200);
      expect(served.headers['content-type']).toBe(original.headers['content-type']);
      expect(Buffer.compare(served.body as Buffer, original.body as Buffer)).toBe(0);
    }
    const copied = (await target.dataSource.query(
      "SELECT space_id, uploader_did, state FROM media WHERE space_id = $1 AND state = 'ready'",
      [newId.slice('space_'.length)],
    )) as { uploader_did: string }[];
    expect(copied.map((media) => media.uploader_did)).toEqual(Array(6).fill(owner.did));
  });

  it('publishes the imported posts through the second instance’s relay: new chains, the same content', async () => {
    // docs/decisions/0233: the importer re-authors the content; its chains are the second relay's
    // own, announced by the ordinary writes, and name the same content as the source's.
    type Card = { title: string | null; protocol?: { contentId: string; headOpCid: string } };
    const cardsOf = async (t: SpacesTestApp, id: string) =>
      ((await t.anonymous.get(`/v1/spaces/${id}/posts`)).body.items as Card[]).map((card) => card);
    const cardsHere = await cardsOf(source, spaceId);
    const cardsThere = await cardsOf(target, importedSpaceId);
    expect(cardsThere).toHaveLength(2);
    for (const [index, card] of cardsThere.entries()) {
      const chain = card.protocol!;
      const original = cardsHere[index].protocol!;
      expect(chain.contentId).not.toBe(original.contentId);
      const state = await target.anonymous.get(`/relay/proof/v1/content/${chain.contentId}`);
      expectStatus(state, 200);
      expect(state.body).toMatchObject({ headCID: chain.headOpCid, state: { isDeleted: false } });
      const log = await target.anonymous.get(`/relay/proof/v1/content/${chain.contentId}/log`);
      expectStatus(log, 200);
      const blobThere = await target.anonymous.get(`/relay/content/${chain.contentId}/blob`);
      const blobHere = await source.anonymous.get(`/relay/content/${original.contentId}/blob`);
      expectStatus(blobThere, 200);
      expect(comparable(blobThere.body, { did: 'did:none', domain: 'domain.none' })).toEqual(
        comparable(blobHere.body, { did: 'did:none', domain: 'domain.none' }),
      );
      expect(blobThere.body).toMatchObject({ credits: [{ did: owner.did, role: 'author' }] });
    }
    // The new space's identity chain is on the second relay, announced as any new space's.
    const spaceDid = ((await target.anonymous.get(`/v1/spaces/${importedSpaceId}`)).body as { did: string })
      .did;
    expectStatus(await target.anonymous.get(`/relay/proof/v1/identities/${spaceDid}/log`), 200);
  });

  it('re-announces the source’s chains on the second relay as they are, after a failed first ingest', async () => {
    // docs/decisions/0236: once the import is done, its job ingests the archive's verified chains;
    // the first ingest failed (above), the retry ingested them.
    const announced = await eventually(
      async () => log.lines().find((line) => line.audit === 'import.announced' && line.owner === owner.did),
      (line) => line !== undefined,
      30_000,
    );
    expect(ingestFailed).toBe(true);
    const files = await unzip(archive);
    const json = <T>(name: string) => JSON.parse(files.get(name)!.toString()) as T;
    const identity = json<ExportedIdentity>('chains/identity.json');
    const signers = json<ExportedIdentity[]>('chains/signers.json');
    const content = json<ExportedContent[]>('chains/content.json');
    expect(identity.did).toBe(
      ((await source.anonymous.get(`/v1/spaces/${spaceId}`)).body as { did: string }).did,
    );
    expect(signers.length).toBeGreaterThan(0);
    expect(content).toHaveLength(3);
    // Every operation new to the second relay, none refused; on the job's second attempt.
    const operations = [identity, ...signers, ...content].reduce(
      (sum, chain) => sum + chain.operations.length,
      0,
    );
    expect(announced).toMatchObject({
      attempt: 2,
      operations: { new: operations, duplicate: 0, rejected: 0 },
    });
    const same = async (path: string) => {
      const [here, there] = [await source.anonymous.get(path), await target.anonymous.get(path)];
      expectStatus(here, 200);
      expectStatus(there, 200);
      expect(there.body).toEqual(here.body);
      return there;
    };
    // The source's space identity and the signers' chains: the same DIDs, the same logs.
    for (const chain of [identity, ...signers]) {
      const served = await same(`/relay/proof/v1/identities/${chain.did}/log`);
      expect(JSON.stringify(served.body)).toContain(chain.operations.at(-1)!.cid);
    }
    // The source's content chains: the same ids, head CIDs, logs and current documents.
    const cardsHere = (await source.anonymous.get(`/v1/spaces/${spaceId}/posts`)).body.items as {
      protocol?: { contentId: string };
    }[];
    for (const card of cardsHere)
      expect(content.map((chain) => chain.contentId)).toContain(card.protocol!.contentId);
    for (const chain of content) {
      const state = await same(`/relay/proof/v1/content/${chain.contentId}`);
      expect(state.body).toMatchObject({ headCID: chain.headCid });
      await same(`/relay/proof/v1/content/${chain.contentId}/log`);
      if (chain.document) {
        const blob = await same(`/relay/content/${chain.contentId}/blob`);
        expect(blob.body).toEqual(chain.document);
      }
    }
    // The archive is kept only until announced (docs/decisions/0237): no key, no object.
    const kept = (await target.dataSource.query(
      "SELECT count(*)::int AS n FROM imports WHERE state = 'done' AND archive_key IS NOT NULL",
    )) as { n: number }[];
    expect(kept[0].n).toBe(0);
    expect((await storedFiles(target)).filter((path) => path.startsWith('imports/'))).toEqual([]);
  });

  it('fails a tampered archive (invalid JSON, a path out of the archive, an oversized entry), storing nothing', async () => {
    const files = await unzip(archive);
    const tampered = (change: (copy: Map<string, Buffer>) => void) => {
      const copy = new Map(files);
      change(copy);
      return zipOf(copy);
    };
    const invalid = await tampered((copy) => copy.set('topics.json', Buffer.from('[{"id":"topic_x"}]')));
    const notJson = await tampered((copy) => copy.set('pages.json', Buffer.from('[{')));
    const escaping = Buffer.from(
      (await tampered((copy) => copy.set('aa/evil.json', Buffer.from('{}'))))
        .toString('latin1')
        .split('aa/evil.json')
        .join('../evil.json'),
      'latin1',
    );
    const oversized = await tampered((copy) =>
      copy.set('posts.json', Buffer.from(`[${' '.repeat(MAX_FILE_BYTES)}]`)),
    );
    const routeInvalid = await tampered((copy) => {
      const pages = JSON.parse(copy.get('pages.json')!.toString()) as { slug: string }[];
      pages[0].slug = 'Not A Slug!';
      copy.set('pages.json', Buffer.from(JSON.stringify(pages)));
    });
    const media = JSON.parse(files.get('media.json')!.toString()) as {
      id: string;
      filename: string;
      contentType: string;
      path: string;
    }[];
    const photo = media.findIndex((record) => record.filename === 'photo.jpg');
    const notJpeg = await tampered((copy) => {
      const records = structuredClone(media);
      records[photo].contentType = 'application/pdf';
      copy.set('media.json', Buffer.from(JSON.stringify(records)));
    });
    const missingFile = await tampered((copy) => copy.delete(media[photo].path));
    const foreignAttachment = await tampered((copy) => {
      const posts = JSON.parse(copy.get('posts.json')!.toString()) as { attachmentIds: string[] }[];
      posts.find((post) => post.attachmentIds.length > 0)!.attachmentIds[0] = formatEntityId(
        'media',
        newUuid(),
      );
      copy.set('posts.json', Buffer.from(JSON.stringify(posts)));
    });
    const foreignProduct = await tampered((copy) => {
      const events = JSON.parse(copy.get('events.json')!.toString()) as { ticketProductIds: string[] }[];
      events.find((event) => event.ticketProductIds.length > 0)!.ticketProductIds[0] = formatEntityId(
        'product',
        newUuid(),
      );
      copy.set('events.json', Buffer.from(JSON.stringify(events)));
    });
    const badRule = await tampered((copy) => {
      const events = JSON.parse(copy.get('events.json')!.toString()) as { title: string }[];
      events[0].title = '';
      copy.set('events.json', Buffer.from(JSON.stringify(events)));
    });
    const before = await spaceCount(target);
    const mediaBefore = await mediaCount(target);
    const filesBefore = await storedFiles(target);
    for (const [bytes, failure] of [
      [invalid, /^topics\.json does not match its schema: \/0 /],
      [notJson, /^pages\.json is not JSON$/],
      [escaping, /^Unsafe entry name: "\.\.\/evil\.json"$/],
      [oversized, new RegExp(`^posts\\.json is larger than ${MAX_FILE_BYTES} bytes$`)],
      [Buffer.from('not a zip'), /^The archive is not a readable zip file$/],
      // Valid against the schema, refused by the route's own rules: before the first write too.
      [routeInvalid, /^pages\.json\/0: /],
      // Media (docs/decisions/0231): sniffed as an upload's, present, and the only ones attached.
      [notJpeg, new RegExp(`^media\\.json/${photo}: the bytes are image/jpeg, not application/pdf$`)],
      [missingFile, new RegExp(`^${media[photo].path.replace(/\./g, '\\.')} is missing$`)],
      [foreignAttachment, /^posts\.json\/\d+: media_[0-9a-f]{32} is not in media\.json$/],
      // Events and the store (docs/decisions/0232): tickets of the archive's products only.
      [foreignProduct, /^events\.json\/\d+: product_[0-9a-f]{32} is not in products\.json$/],
      [badRule, /^events\.json\/0: title /],
    ] as const) {
      const started = await postArchive(target, ownerThere, bytes);
      expectStatus(started, 202);
      const failed = await settled(target, ownerThere, started.body.id as string);
      expect(failed.body.state).toBe('failed');
      expect(failed.body.failure).toMatch(failure);
      expect(failed.body.spaceId).toBeUndefined();
      const audit = log.lines().filter((line) => line.import === started.body.id);
      expect(audit.map((line) => [line.audit, line.owner])).toEqual([
        ['import.requested', owner.did],
        ['import.failed', owner.did],
      ]);
    }
    expect(await spaceCount(target)).toBe(before);
    expect(await mediaCount(target)).toBe(mediaBefore);
    // Neither the archives nor a file staged before the refusal stay in the store (docs/decisions/0237).
    expect(await storedFiles(target)).toEqual(filesBefore);
    const stored = (await target.dataSource.query(
      'SELECT (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM store_products)::int AS products',
    )) as { events: number; products: number }[];
    expect(stored[0]).toEqual({ events: 4, products: 2 });
    const kept = (await target.dataSource.query(
      "SELECT count(*)::int AS n FROM imports WHERE state = 'failed' AND archive_key IS NOT NULL",
    )) as { n: number }[];
    expect(kept[0].n).toBe(0);
  });

  it('a store fault mid-staging: the attempt removes what it staged, the retry imports the space whole', async () => {
    // docs/decisions/0237: the files are staged in the store before any row; a fault that is not
    // the archive's is retried, and leaves no file that no row names.
    const storage = target.app.get(MediaStorage);
    const put = storage.put.bind(storage);
    let originals = 0;
    const spy = jest.spyOn(storage, 'put').mockImplementation(async (key, body, options) => {
      if (key.includes('/original-') && ++originals === 2) throw new Error('the store is unavailable');
      return put(key, body, options);
    });
    try {
      const started = await postArchive(target, ownerThere, archive);
      expectStatus(started, 202);
      const done = await settled(target, ownerThere, started.body.id as string);
      expect(done.body).toMatchObject({ state: 'done' });
      expect(originals).toBeGreaterThan(2);
    } finally {
      spy.mockRestore();
    }
    const rows = (await target.dataSource.query('SELECT id FROM media')) as { id: string }[];
    const named = new Set(rows.map((row) => row.id));
    // Media folders are their uuids (the store's `exports/` and `imports/` are the archives').
    const folders = new Set(
      (await storedFiles(target))
        .map((path) => path.split('/')[0])
        .filter((folder) => /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(folder)),
    );
    expect(folders.size).toBeGreaterThan(0);
    expect([...folders].filter((folder) => !named.has(folder))).toEqual([]);
  });

  it('fails an archive whose chains/ do not verify or do not hold its public posts, storing nothing; imports one without chains/', async () => {
    // docs/decisions/0235: the chains are verified with the protocol's rules before the first write.
    const files = await unzip(archive);
    type Chain = {
      contentId: string;
      document: Record<string, unknown> | null;
      operations: { cid: string; jwsToken: string }[];
    };
    const content = JSON.parse(files.get('chains/content.json')!.toString()) as Chain[];
    const posts = JSON.parse(files.get('posts.json')!.toString()) as {
      body: string;
      contentId: string | null;
    }[];
    expect(posts.filter((post) => post.contentId !== null)).toHaveLength(2);
    const postIndex = posts.findIndex((post) => post.contentId !== null);
    const chainIndex = content.findIndex((chain) => chain.contentId === posts[postIndex].contentId);
    expect(chainIndex).toBeGreaterThanOrEqual(0);
    const withChains = (change: (chains: Chain[]) => void) => {
      const copy = new Map(files);
      const chains = structuredClone(content);
      change(chains);
      copy.set('chains/content.json', Buffer.from(JSON.stringify(chains)));
      return zipOf(copy);
    };
    const badSignature = await withChains((chains) => {
      const op = chains[chainIndex].operations[0];
      const [header, payload, signature] = op.jwsToken.split('.');
      const flipped = signature[20] === 'A' ? 'B' : 'A';
      op.jwsToken = [header, payload, signature.slice(0, 20) + flipped + signature.slice(21)].join('.');
    });
    const changedDocument = await withChains((chains) => {
      chains[chainIndex].document = { ...chains[chainIndex].document, body: 'not what was signed' };
    });
    const otherPost = await (async () => {
      const copy = new Map(files);
      const changed = structuredClone(posts);
      changed[postIndex].body = 'not the chain’s body';
      copy.set('posts.json', Buffer.from(JSON.stringify(changed)));
      return zipOf(copy);
    })();
    const missingChain = await withChains((chains) => chains.splice(chainIndex, 1));
    const partial = await (async () => {
      const copy = new Map(files);
      copy.delete('chains/signers.json');
      return zipOf(copy);
    })();
    const foreignIdentity = await (async () => {
      const copy = new Map(files);
      copy.set(
        'chains/identity.json',
        Buffer.from(
          JSON.stringify((JSON.parse(files.get('chains/signers.json')!.toString()) as unknown[])[0]),
        ),
      );
      return zipOf(copy);
    })();
    const wrongCid = await withChains((chains) => {
      chains[chainIndex].operations[0] = {
        ...chains[chainIndex].operations[0],
        cid: content[(chainIndex + 1) % content.length].operations[0].cid,
      };
    });
    const before = await spaceCount(target);
    const mediaBefore = await mediaCount(target);
    const postsBefore = async () =>
      ((await target.dataSource.query('SELECT count(*)::int AS n FROM posts')) as { n: number }[])[0].n;
    const postCount = await postsBefore();
    for (const [bytes, failure] of [
      [badSignature, new RegExp(`^chains/content\\.json/${chainIndex}: .*signature`, 'i')],
      [
        changedDocument,
        new RegExp(`^chains/content\\.json/${chainIndex}: the document is not the one its head commits to$`),
      ],
      [
        otherPost,
        new RegExp(`^posts\\.json/${postIndex}: its body is not the one its chain's document holds$`),
      ],
      [
        missingChain,
        new RegExp(`^posts\\.json/${postIndex}: its chain \\S+ is not in chains/content\\.json$`),
      ],
      [partial, /^chains\/signers\.json is missing \(the chains\/ files come together\)$/],
      [foreignIdentity, /^chains\/identity\.json is not the identity chain of did:/],
      [wrongCid, new RegExp(`^chains/content\\.json/${chainIndex}: operation 0 has CID \\S+, not \\S+$`)],
    ] as const) {
      const started = await postArchive(target, ownerThere, bytes);
      expectStatus(started, 202);
      const failed = await settled(target, ownerThere, started.body.id as string);
      expect([failed.body.state, failed.body.failure]).toEqual(['failed', expect.stringMatching(failure)]);
      expect(failed.body.spaceId).toBeUndefined();
    }
    expect(await spaceCount(target)).toBe(before);
    expect(await mediaCount(target)).toBe(mediaBefore);
    expect(await postsBefore()).toBe(postCount);

    // chains/ is optional to the reader: an archive without it imports, nothing verified.
    const unchained = new Map([...files].filter(([name]) => !name.startsWith('chains/')));
    const started = await postArchive(target, ownerThere, await zipOf(unchained));
    expectStatus(started, 202);
    const done = await settled(target, ownerThere, started.body.id as string);
    expect(done.body.state).toBe('done');
    const doneLine = log
      .lines()
      .find((line) => line.import === started.body.id && line.audit === 'import.done');
    expect(doneLine).toMatchObject({ chains: null });
    expect(await spaceCount(target)).toBe(before + 1);
  });

  /**
   * Audio and video (docs/decisions/0231, amended): checked with ffprobe before the first write,
   * probed as they are stored, ready at once with the facts the processing job would give them.
   */
  (FFMPEG_PRESENT ? describe : describe.skip)('audio and video attachments', () => {
    type Attachment = Record<string, unknown> & { id: string; url: string; posterUrl?: string };
    let avSpaceId: string;
    let avArchive: Buffer;

    /** The one post of a space, as `reader` reads it: its attachments in order. */
    const attachmentsOf = async (reader: Actor, id: string): Promise<Attachment[]> => {
      const posts = await reader.get(`/v1/spaces/${id}/posts`);
      expectStatus(posts, 200);
      const items = posts.body.items as { id: string }[];
      expect(items).toHaveLength(1);
      const post = await reader.get(`/v1/spaces/${id}/posts/${items[0].id}`);
      expectStatus(post, 200);
      return (post.body as { post: { attachments: Attachment[] } }).post.attachments;
    };

    beforeAll(async () => {
      avSpaceId = (await newSpace(owner, 'Sound and vision')).id;
      const music = await newTopic(owner, avSpaceId, 'Music', 'public');
      // An MP3 with cover art (its poster) and an MP4 (a frame as poster), as in the media e2e tests.
      const song = await withFfmpeg(
        [
          ...['-f', 'lavfi', '-i', 'sine=frequency=330:duration=2'],
          ...['-f', 'lavfi', '-i', 'color=c=red:s=64x64:d=1'],
          ...['-map', '0', '-map', '1', '-frames:v', '1', '-c:a', 'libmp3lame', '-b:a', '32k'],
          ...['-c:v', 'mjpeg', '-id3v2_version', '3', '-disposition:v', 'attached_pic'],
        ],
        'mp3',
      );
      const clip = await withFfmpeg(
        [
          ...['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=2'],
          ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264'],
        ],
        'mp4',
      );
      const ids: string[] = [];
      for (const [filename, contentType, bytes] of [
        ['song.mp3', 'audio/mpeg', song],
        ['clip.mp4', 'video/mp4', clip],
      ] as const) {
        const id = await spaceUpload(source, owner, avSpaceId, { filename, contentType, bytes });
        expect((await mediaSettled(owner, avSpaceId, id)).status).toBe('ready');
        ids.push(id);
      }
      await newPost(owner, avSpaceId, { topic: music, body: 'Listen and watch', attachments: ids });
      await makePublic(owner, avSpaceId, 'open');
      avArchive = await exportedSpace(source, owner, avSpaceId);
    });

    /** The archive with its audio's bytes a WAV header cut short: sniffed as audio/wav, refused by ffprobe. */
    const brokenAudio = async () => {
      const files = await unzip(avArchive);
      const media = JSON.parse(files.get('media.json')!.toString()) as {
        filename: string;
        contentType: string;
        size: number;
        path: string;
      }[];
      const index = media.findIndex((record) => record.contentType === 'audio/mpeg');
      const bytes = truncatedWav();
      Object.assign(media[index], { filename: 'song.wav', contentType: 'audio/wav', size: bytes.length });
      files.set('media.json', Buffer.from(JSON.stringify(media)));
      files.set(media[index].path, bytes);
      return { index, archive: await zipOf(files) };
    };

    it('copies them: the post’s attachments are new media, ready, with the source’s facts, bytes and posters', async () => {
      const started = await postArchive(target, ownerThere, avArchive);
      expectStatus(started, 202);
      const done = await settled(target, ownerThere, started.body.id as string);
      expect(done.body).toMatchObject({ state: 'done' });
      const newId = done.body.spaceId as string;
      const here = await attachmentsOf(owner, avSpaceId);
      const there = await attachmentsOf(ownerThere, newId);
      expect(here.map((media) => media.contentType)).toEqual(['audio/mpeg', 'video/mp4']);
      expect(there.map((media) => media.contentType)).toEqual(['audio/mpeg', 'video/mp4']);
      // The same media objects, ids and signed URLs aside: duration, waveform, size, BlurHash.
      expect(comparable(there, { did: 'did:none', domain: 'domain.none' })).toEqual(
        comparable(here, { did: 'did:none', domain: 'domain.none' }),
      );
      const [song, clip] = there;
      expect(song.durationMs).toBeGreaterThanOrEqual(1900);
      expect((song.waveformPeaks as number[]).length).toBeGreaterThan(0);
      expect(clip).toMatchObject({ durationMs: 2000, width: 160, height: 120 });
      for (const [index, media] of there.entries()) {
        const original = here[index];
        expect(media.id).not.toBe(original.id);
        const state = await ownerThere.get(`/v1/spaces/${newId}/media/${media.id}`);
        expectStatus(state, 200);
        expect(state.body.status).toBe('ready');
        const [served, sent] = [await bytesAt(target, media.url), await bytesAt(source, original.url)];
        expectStatus(served, 200);
        expect(Buffer.compare(served.body as Buffer, sent.body as Buffer)).toBe(0);
        // A poster where the source has one (the MP3's cover art, the MP4's frame), the same size.
        expect(original.posterUrl).toBeDefined();
        const [poster, posterHere] = [
          await bytesAt(target, media.posterUrl!),
          await bytesAt(source, original.posterUrl!),
        ];
        expectStatus(poster, 200);
        expect(poster.headers['content-type']).toBe('image/jpeg');
        const sizeOf = async (bytes: Buffer) => {
          const { width, height } = await sharp(bytes).metadata();
          return [width, height];
        };
        expect(await sizeOf(poster.body as Buffer)).toEqual(await sizeOf(posterHere.body as Buffer));
      }
      // Counted in the new space's storage figure, as uploads are.
      const usage = (await target.dataSource.query(
        'SELECT stored_bytes::int AS bytes FROM media_space_usage WHERE space_id = $1',
        [newId.slice('space_'.length)],
      )) as { bytes: number }[];
      expect(usage[0].bytes).toBe(there.reduce((sum, media) => sum + (media.contentLength as number), 0));
    });

    it('refuses an audio file ffprobe cannot read before the first write, naming its record', async () => {
      const { index, archive: broken } = await brokenAudio();
      const before = [await spaceCount(target), await mediaCount(target), await storedFiles(target)];
      const started = await postArchive(target, ownerThere, broken);
      expectStatus(started, 202);
      const failed = await settled(target, ownerThere, started.body.id as string);
      expect([failed.body.state, failed.body.failure]).toEqual([
        'failed',
        expect.stringMatching(new RegExp(`^media\\.json/${index}: ffprobe exited \\d+`)),
      ]);
      expect(failed.body.spaceId).toBeUndefined();
      expect([await spaceCount(target), await mediaCount(target), await storedFiles(target)]).toEqual(before);
    });

    it('without ffprobe, imports them ready without their facts, as processing leaves such media', async () => {
      const quiet = await bootMedia({
        env: { MEDIA_FFPROBE_PATH: '/nonexistent/ffprobe', MEDIA_FFMPEG_PATH: '/nonexistent/ffmpeg' },
      });
      try {
        const ownerQuiet = await Actor.create(quiet, { identity: owner.identity });
        expectStatus(await ownerQuiet.signUp('im-owner', 'Owner'), 201);
        // Even bytes ffprobe would refuse: nothing can check them, as nothing could process them.
        const started = await postArchive(quiet, ownerQuiet, (await brokenAudio()).archive);
        expectStatus(started, 202);
        const done = await settled(quiet, ownerQuiet, started.body.id as string);
        expect(done.body).toMatchObject({ state: 'done' });
        const [song, clip] = await attachmentsOf(ownerQuiet, done.body.spaceId as string);
        expect([song.contentType, clip.contentType]).toEqual(['audio/wav', 'video/mp4']);
        for (const media of [song, clip]) {
          for (const fact of ['durationMs', 'waveformPeaks', 'posterUrl', 'width', 'height'])
            expect(media[fact]).toBeUndefined();
        }
        const states = (await quiet.dataSource.query('SELECT state FROM media ORDER BY filename')) as {
          state: string;
        }[];
        expect(states).toEqual([{ state: 'ready' }, { state: 'ready' }]);
      } finally {
        await quiet.close();
      }
    });
  });
});
