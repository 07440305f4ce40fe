import Ajv2020 from 'ajv/dist/2020';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import request, { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { formatEntityId, newUuid, parseEntityId } from '../../../src/common/ids/entity-id';
import { AccountErasuresService } from '../../../src/account-erasure';
import { ExportsService } from '../../../src/exports';
import { ExportUrlSignerService } from '../../../src/exports/services/export-url-signer.service';
import { ARCHIVE_SCHEMAS, schemaPathOf } from '../../../src/exports/domain/archive-format';
import { schemaDrift } from '../../../src/infrastructure/database/schema-drift';
import { resolveCurrentKey, verifyContentChain, verifyIdentityChain } from '../../../src/protocol/core';
import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { CapturedLog } from '../../support/log-capture';
import { pngBytes, spaceUpload } from '../../support/media-uploads';
import { admit, makePublic, newSpace, person } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { bootSpaces, expectNotFound, expectStatus, SpacesTestApp } from '../spaces/support';
import { download, unzip } from './support';

const DAY_MS = 86_400_000;

/**
 * Personal exports (issue 35 item 3; docs/decisions/0210 to 0213): POST /v1/exports queues the
 * build, GET shows its state and, when ready, a signed URL of one zip archive whose JSON files
 * validate against the schemas it carries; one at a time; expiry by the sweep.
 */
describe('personal exports (e2e)', () => {
  const log = new CapturedLog();
  let t: SpacesTestApp;
  let owner: Actor;
  let alice: Actor;
  let bob: Actor;
  let spaceId: string;
  let mediaId: string;
  let photo: Buffer;
  const alicePosts: string[] = [];
  let aliceCommentId: string;

  beforeAll(async () => {
    t = await bootSpaces({ env: { LOG_LEVEL: 'info' }, override: log.install });
    [owner, alice, bob] = await Promise.all([person(t), person(t), person(t)]);
    expectStatus(await owner.signUp('export-owner', 'Owner'), 201);
    expectStatus(await alice.signUp('export-alice', 'Alice'), 201);
    expectStatus(await bob.signUp('export-bob', 'Bob'), 201);
    expectStatus(await alice.patch('/profile', { bio: 'Keeps her data', email: 'alice@example.com' }), 200);
    spaceId = (await newSpace(owner, 'Exports')).id;
    await makePublic(owner, spaceId);
    await admit(owner, spaceId, alice);
    const topic = await newTopic(owner, spaceId, 'Open', 'public');
    photo = await pngBytes(64, 48);
    mediaId = await spaceUpload(t, alice, spaceId, {
      filename: 'my photo.png',
      contentType: 'image/png',
      bytes: photo,
    });
    alicePosts.push(
      (
        await newPost(alice, spaceId, {
          topic,
          title: 'First',
          body: 'alice wrote this',
          attachments: [mediaId],
        })
      ).id,
    );
    alicePosts.push((await newPost(alice, spaceId, { topic, body: 'a second one' })).id);
    const ownerPost = (await newPost(owner, spaceId, { topic, body: 'from the owner' })).id;
    const comment = await alice.post(`/v1/spaces/${spaceId}/posts/${ownerPost}/comments`, {
      body: 'alice comments',
    });
    expectStatus(comment, 201);
    aliceCommentId = comment.body.id as string;
    // The owner answers on alice's post: a notification to alice.
    expectStatus(
      await owner.post(`/v1/spaces/${spaceId}/posts/${alicePosts[0]}/comments`, { body: 'nice' }),
      201,
    );
    await eventually(
      () => alice.get('/notifications'),
      (response) => JSON.stringify(response.body).includes(alicePosts[0].slice('post_'.length)),
    );
  });

  afterAll(() => t?.close());

  it('needs an identity proof on every route but the signed download', async () => {
    expect((await request(t.http).post('/v1/exports')).status).toBe(401);
    expect((await request(t.http).get('/v1/exports')).status).toBe(401);
    expect((await request(t.http).get(`/v1/exports/${formatEntityId('export', newUuid())}`)).status).toBe(
      401,
    );
  });

  it('builds the archive, serves it by signed URL, and its files are the person’s data', async () => {
    const started = await alice.post('/v1/exports');
    expectStatus(started, 202);
    expect(Object.keys(started.body).sort()).toEqual(['createdAt', 'id', 'state']);
    expect(started.body.state).toBe('queued');
    const exportId = started.body.id as string;
    expect(parseEntityId('export', exportId)).not.toBeNull();

    // The job (the real queue) builds it; the owner polls.
    const ready = await eventually(
      () => alice.get(`/v1/exports/${exportId}`),
      (response) => response.body.state === 'ready' || response.body.state === 'failed',
      60_000,
    );
    expectStatus(ready, 200);
    expect(ready.body.state).toBe('ready');
    const expiresAt = new Date(ready.body.expiresAt as string).getTime();
    expect(Math.abs(expiresAt - (t.clock.now().getTime() + 7 * DAY_MS))).toBeLessThan(120_000);
    const url = ready.body.url as string;
    expect(url).toMatch(new RegExp(`/v1/exports/${exportId}/archive\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));

    const archive = await download(t, url);
    expectStatus(archive, 200);
    expect(archive.headers['content-type']).toBe('application/zip');
    const files = await unzip(archive.body as Buffer);

    // Every JSON file is there, with its schema, and validates against it.
    expect(files.has('README')).toBe(true);
    expect(files.get('README')!.toString()).toContain('chains/identity.json');
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const parsed = new Map<string, unknown>();
    for (const file of Object.keys(ARCHIVE_SCHEMAS)) {
      expect([file, files.has(file)]).toEqual([file, true]);
      expect([file, files.has(schemaPathOf(file))]).toEqual([file, true]);
      const data = JSON.parse(files.get(file)!.toString()) as unknown;
      const validate = ajv.compile(JSON.parse(files.get(schemaPathOf(file))!.toString()) as object);
      expect([file, validate(data), validate.errors ?? null]).toEqual([file, true, null]);
      parsed.set(file, data);
    }

    const profile = parsed.get('profile.json') as Record<string, unknown>;
    expect(profile).toMatchObject({
      did: alice.did,
      handle: 'export-alice',
      bio: 'Keeps her data',
      email: 'alice@example.com',
    });
    const posts = parsed.get('posts.json') as { id: string; body: string; attachmentIds: string[] }[];
    expect(posts.map((post) => post.id).sort()).toEqual([...alicePosts].sort());
    expect(posts.find((post) => post.id === alicePosts[0])).toMatchObject({
      body: 'alice wrote this',
      attachmentIds: [mediaId],
    });
    const comments = parsed.get('comments.json') as { id: string; body: string }[];
    expect(comments.map((comment) => [comment.id, comment.body])).toEqual([
      [aliceCommentId, 'alice comments'],
    ]);
    const memberships = parsed.get('memberships.json') as { space: { id: string }; status: string }[];
    expect(memberships.map((row) => [row.space.id, row.status])).toEqual([[spaceId, 'active']]);
    const notifications = parsed.get('notifications.json') as { spaceId: string }[];
    expect(notifications.length).toBeGreaterThan(0);
    expect(notifications.every((row) => row.spaceId === spaceId)).toBe(true);
    const media = parsed.get('media.json') as { id: string; path: string; size: number }[];
    expect(media).toHaveLength(1);
    expect(media[0]).toMatchObject({
      id: mediaId,
      path: `media/${mediaId}/my_photo.png`,
      size: photo.length,
    });
    expect(files.get(media[0].path)!.equals(photo)).toBe(true);

    // The identity chain verifies with the protocol's rules, offline.
    const identity = parsed.get('chains/identity.json') as {
      did: string;
      operations: { cid: string; jwsToken: string }[];
    };
    expect(identity.did).toBe(alice.did);
    const verified = verifyIdentityChain(
      identity.operations.map((op) => op.jwsToken),
      { expectedDid: alice.did },
    );
    expect(verified.state.headCid).toBe(identity.operations[identity.operations.length - 1].cid);

    // Content chains: the public posts' chains (signed by the origin for alice) verify offline
    // with the signers' identity chains the archive carries.
    const signers = parsed.get('chains/signers.json') as {
      did: string;
      operations: { jwsToken: string }[];
    }[];
    const states = new Map(
      [identity, ...signers].map((chain) => [
        chain.did,
        verifyIdentityChain(
          chain.operations.map((op) => op.jwsToken),
          { expectedDid: chain.did },
        ).state,
      ]),
    );
    const content = parsed.get('chains/content.json') as {
      contentId: string;
      headCid: string;
      operations: { cid: string; jwsToken: string }[];
    }[];
    const postChains = posts.flatMap((post) => ((post as { contentId?: string }).contentId ? [post] : []));
    expect(postChains).toHaveLength(2);
    for (const post of postChains as unknown as { contentId: string }[]) {
      expect(content.map((chain) => chain.contentId)).toContain(post.contentId);
    }
    for (const chain of content) {
      const verifiedChain = await verifyContentChain(
        chain.operations.map((op) => op.jwsToken),
        {
          resolveKey: (kid) => resolveCurrentKey(states.get(kid.split('#')[0])!, kid).publicKey,
          isRevoked: () => false,
        },
      );
      expect([verifiedChain.state.contentId, verifiedChain.state.headCid]).toEqual([
        chain.contentId,
        chain.headCid,
      ]);
    }

    // Nobody else's data.
    expect(files.get('posts.json')!.toString()).not.toContain('from the owner');
    expect([...files.keys()].filter((path) => path.startsWith('media/'))).toEqual([media[0].path]);

    // Audit lines: requested, ready, downloaded, each naming who and what.
    const audit = log.lines().filter((line) => typeof line.audit === 'string' && line.export === exportId);
    expect(audit.map((line) => line.audit)).toEqual([
      'export.requested',
      'export.ready',
      'export.downloaded',
    ]);
    expect(audit.every((line) => line.owner === alice.did && typeof line.at === 'string')).toBe(true);

    // The listing shows it, with its URL.
    const listing = await alice.get('/v1/exports');
    expectStatus(listing, 200);
    expect(listing.body.items.map((item: { id: string }) => item.id)).toContain(exportId);
  });

  it('refuses a second export while one is queued or running: 409 in the error envelope, nothing stored', async () => {
    const running = newUuid();
    await t.dataSource.query(
      "INSERT INTO exports (id, owner_did, state, created_at, updated_at) VALUES ($1, $2, 'running', now(), now())",
      [running, bob.did],
    );
    const second = await bob.post('/v1/exports');
    expectStatus(second, 409);
    expect(second.body).toEqual({ code: 'E_CONFLICT', message: 'An export is already in progress' });
    const rows = (await t.dataSource.query('SELECT id FROM exports WHERE owner_did = $1', [
      bob.did,
    ])) as unknown[];
    expect(rows).toHaveLength(1);
    await t.dataSource.query("UPDATE exports SET state = 'failed' WHERE id = $1", [running]);
  });

  it('answers the constant 404 for another person’s export, a malformed id and an unknown one', async () => {
    const exports = (await alice.get('/v1/exports')).body.items as { id: string }[];
    expectNotFound(await bob.get(`/v1/exports/${exports[0].id}`));
    expectNotFound(await alice.get('/v1/exports/export_nothex'));
    // A listing query out of bounds is a 400 in the envelope.
    const bad = await alice.get('/v1/exports?limit=0');
    expectStatus(bad, 400);
    expect(bad.body.code).toBe('E_INVALID_REQUEST');
    expectNotFound(await alice.get(`/v1/exports/${formatEntityId('export', newUuid())}`));
    expect((await bob.get('/v1/exports')).body.items.map((item: { id: string }) => item.id)).not.toContain(
      exports[0].id,
    );
  });

  it('refuses a download whose signature is tampered with, missing or expired (403), and names nothing else', async () => {
    const [ready] = (await alice.get('/v1/exports')).body.items as { id: string; url: string }[];
    const url = new URL(ready.url);
    const tampered = `${url.pathname}?exp=${url.searchParams.get('exp')}&sig=${'A'.repeat(43)}`;
    expect((await request(t.http).get(tampered)).status).toBe(403);
    expect((await request(t.http).get(url.pathname)).status).toBe(403);
    // Another export's id with this signature.
    const other = `/v1/exports/${formatEntityId('export', newUuid())}/archive${url.search}`;
    expect((await request(t.http).get(other)).status).toBe(403);
    t.clock.offsetMs += 2 * 3600 * 1000;
    try {
      expect((await request(t.http).get(url.pathname + url.search)).status).toBe(403);
      // A fresh read signs a fresh URL.
      const again = await alice.get(`/v1/exports/${ready.id}`);
      expectStatus((await download(t, again.body.url as string)) as Response, 200);
    } finally {
      t.clock.offsetMs -= 2 * 3600 * 1000;
    }
  });

  it('expires the archive after 7 days: the sweep deletes it, the export shows expired without a URL', async () => {
    const [ready] = (await alice.get('/v1/exports')).body.items as { id: string; url: string }[];
    const id = parseEntityId('export', ready.id)!;
    const folder = join(t.config.MEDIA_DIR, 'exports', id);
    expect((await readdir(folder)).length).toBe(1);
    const service = t.app.get(ExportsService);
    t.clock.offsetMs += 6 * DAY_MS;
    try {
      expect(await service.sweep()).toBe(0);
      expect((await alice.get(`/v1/exports/${ready.id}`)).body.state).toBe('ready');
      t.clock.offsetMs += DAY_MS + 60_000;
      expect(await service.sweep()).toBe(1);
      const expired = await alice.get(`/v1/exports/${ready.id}`);
      expectStatus(expired, 200);
      expect(expired.body.state).toBe('expired');
      expect(expired.body.url).toBeUndefined();
      expect(existsSync(folder) ? await readdir(folder) : []).toEqual([]);
      // Even a valid signature finds nothing any more.
      const exp = Math.floor(t.clock.now().getTime() / 1000) + 600;
      const signed = t.app.get(ExportUrlSignerService).sign(ready.id, exp);
      expectNotFound(await request(t.http).get(`/v1/exports/${ready.id}/archive?${signed}`));
      expect(await service.sweep()).toBe(0);
    } finally {
      t.clock.offsetMs = 0;
    }
    // A new export may start once the last one is settled.
    expectStatus(await alice.post('/v1/exports'), 202);
  });

  it('leaves a failed export and no archive when the build fails, never half an archive', async () => {
    const id = newUuid();
    await t.dataSource.query(
      "INSERT INTO exports (id, owner_did, state, created_at, updated_at) VALUES ($1, $2, 'queued', now(), now())",
      [id, owner.did],
    );
    // The owner's upload whose bytes are gone from the store: the build fails on it mid-archive.
    const broken = await spaceUpload(t, owner, spaceId, {
      filename: 'gone.png',
      contentType: 'image/png',
      bytes: photo,
    });
    const [{ storage_key: key }] = (await t.dataSource.query('SELECT storage_key FROM media WHERE id = $1', [
      parseEntityId('media', broken),
    ])) as { storage_key: string }[];
    const { rm } = await import('node:fs/promises');
    await rm(join(t.config.MEDIA_DIR, key));
    const service = t.app.get(ExportsService);
    await expect(service.build(id, { attempt: 1, last: false })).rejects.toThrow();
    expect(
      (await t.dataSource.query('SELECT state, archive_key FROM exports WHERE id = $1', [id]))[0],
    ).toEqual({
      state: 'running',
      archive_key: null,
    });
    await expect(service.build(id, { attempt: 3, last: true })).rejects.toThrow();
    expect(
      (await t.dataSource.query('SELECT state, archive_key FROM exports WHERE id = $1', [id]))[0],
    ).toEqual({
      state: 'failed',
      archive_key: null,
    });
    const folder = join(t.config.MEDIA_DIR, 'exports', id);
    expect(existsSync(folder) ? await readdir(folder) : []).toEqual([]);
    const shown = await owner.get(`/v1/exports/${formatEntityId('export', id)}`);
    expect(shown.body).toEqual({
      id: formatEntityId('export', id),
      state: 'failed',
      createdAt: expect.any(String),
    });
  });

  it('an erasure removes the person’s exports: no row names them, the archive is deleted', async () => {
    const dave = await person(t);
    expectStatus(await dave.signUp('export-dave', 'Dave'), 201);
    const started = await dave.post('/v1/exports');
    expectStatus(started, 202);
    const ready = await eventually(
      () => dave.get(`/v1/exports/${started.body.id}`),
      (response) => response.body.state === 'ready' || response.body.state === 'failed',
      60_000,
    );
    expect(ready.body.state).toBe('ready');
    const folder = join(t.config.MEDIA_DIR, 'exports', parseEntityId('export', started.body.id)!);
    expect(await readdir(folder)).toHaveLength(1);
    expectStatus(await dave.send('DELETE', '/profile', { confirmHandle: 'export-dave' }), 202);
    t.clock.offsetMs += 31 * DAY_MS;
    try {
      expect((await t.app.get(AccountErasuresService).sweep()).erased).toBe(1);
    } finally {
      t.clock.offsetMs = 0;
    }
    const naming = (await t.dataSource.query(
      'SELECT count(*)::int AS n FROM exports r WHERE strpos(row_to_json(r)::text, $1) > 0',
      [dave.did],
    )) as { n: number }[];
    expect(naming[0].n).toBe(0);
    expect(existsSync(folder) ? await readdir(folder) : []).toEqual([]);
    const [row] = (await t.dataSource.query(
      'SELECT state, owner_did, archive_key FROM exports WHERE id = $1',
      [parseEntityId('export', started.body.id)],
    )) as { state: string; owner_did: string; archive_key: string | null }[];
    expect(row).toEqual({ state: 'expired', owner_did: '', archive_key: null });
  });

  it('has a migration that creates exactly what its entities declare', async () => {
    expect((await schemaDrift(t.app.get(DataSource))).up).toEqual([]);
  });
});
