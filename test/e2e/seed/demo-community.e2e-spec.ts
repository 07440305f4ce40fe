import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loopbackFetch } from '../../../db/seed/demo/loopback';
import { DEMO_PLAN } from '../../../db/seed/demo/plan';
import { seedDemoCommunity, type DemoSeedResult } from '../../../db/seed/demo/seed-demo';
import { run } from '../../../src/cli/plat';
import { PlatClient } from '../../../src/protocol/client';
import { verifyIdentityChain } from '../../../src/protocol/core';
import { bootApp, type TestApp } from '../../support/app';

/**
 * `npm run seed`'s demo community (docs/decisions/0103-demo-community-seed.md): seeded through the HTTP
 * API of a listening app exactly as db/seed.ts does it (the CLI's client, public origin redirected
 * to the loopback port), then used at once with the `plat` CLI and the key files it wrote.
 */
describe('demo community seed (e2e)', () => {
  let t: TestApp;
  let loopback: string;
  let keysDir: string;
  let first: DemoSeedResult;

  /** The seed's client: the public origin (PUBLIC_BASE_URL) redirected to the loopback port. */
  const client = () =>
    new PlatClient({
      baseUrl: t.config.publicBaseUrl,
      audience: t.config.publicHost,
      fetch: loopbackFetch(t.config.publicBaseUrl, loopback),
    });
  const seed = () => seedDemoCommunity({ client: client(), keysDir, publicApi: t.config.publicBaseUrl });

  /** Runs one `plat` command line in-process against the listening app. */
  async function plat(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      env: { PLAT_API: loopback, PLAT_HOST: t.config.publicHost },
    });
    return { code, stdout, stderr };
  }

  const keyFile = (handle: string) => join(keysDir, `${handle}.json`);
  const count = async (table: string) =>
    Number((await t.app.get(DataSource).query(`SELECT count(*) AS n FROM "${table}"`))[0].n);

  beforeAll(async () => {
    t = await bootApp();
    await t.app.listen(0, '127.0.0.1');
    loopback = `http://127.0.0.1:${((t.app.getHttpServer() as Server).address() as AddressInfo).port}`;
    keysDir = await mkdtemp(join(tmpdir(), 'plat-demo-seed-'));
    first = await seed();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    if (keysDir) await rm(keysDir, { recursive: true, force: true });
  });

  it('writes one CLI key file per person, mode 0600, whose chain the relay holds with the same head', async () => {
    expect(first.people.map((person) => person.handle)).toEqual(DEMO_PLAN.people.map((p) => p.handle));
    expect((await readdir(keysDir)).sort()).toEqual(DEMO_PLAN.people.map((p) => `${p.handle}.json`).sort());
    for (const person of first.people) {
      expect(person.keyFile).toBe(keyFile(person.handle));
      expect((await stat(person.keyFile)).mode & 0o777).toBe(0o600);
      const whoami = await plat(['whoami', '--json', '--keys', person.keyFile]);
      expect(whoami.code).toBe(0);
      const local = JSON.parse(whoami.stdout) as { did: string; headCid: string; account: unknown };
      expect(local.did).toBe(person.did);
      expect(local.account).toEqual({ api: t.config.publicBaseUrl, handle: person.handle });

      const published = await client().fetchIdentityLog(person.did);
      const { state } = verifyIdentityChain(published, { expectedDid: person.did });
      expect(state.headCid).toBe(local.headCid);
    }
  });

  it('plat request as alice reads her own profile (200, her data)', async () => {
    const result = await plat(['request', 'GET', '/v1/profile', '--json', '--keys', keyFile('alice')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const { status, body } = JSON.parse(result.stdout) as { status: number; body: Record<string, unknown> };
    expect(status).toBe(200);
    expect(body).toMatchObject({
      did: first.people[0].did,
      handle: 'alice',
      displayName: 'Alice Moreau',
      isPublic: true,
    });
  });

  it('plat request as carol, a member, reads the space members (owner, admin, members) and the members-only post', async () => {
    const space = first.spaces.find((entry) => entry.domain === 'riverside-makers')!;
    const dids = new Map(first.people.map((person) => [person.handle, person.did]));
    const members = await plat([
      'request',
      'GET',
      `/spaces/${space.id}/members`,
      '--json',
      '--keys',
      keyFile('carol'),
    ]);
    expect(members.code).toBe(0);
    const listing = JSON.parse(members.stdout) as {
      status: number;
      body: { items: { did: string; role: string }[] };
    };
    expect(listing.status).toBe(200);
    expect(new Map(listing.body.items.map((item) => [item.did, item.role]))).toEqual(
      new Map([
        [dids.get('alice'), 'owner'],
        [dids.get('bob'), 'admin'],
        [dids.get('carol'), 'member'],
        [dids.get('dave'), 'member'],
        [dids.get('erin'), 'member'],
      ]),
    );

    const feed = await plat(['request', 'GET', '/v1/feed?limit=100', '--json', '--keys', keyFile('carol')]);
    expect(feed.code).toBe(0);
    const titles = (JSON.parse(feed.stdout) as { body: { items: { title: string }[] } }).body.items.map(
      (item) => item.title,
    );
    expect(titles).toEqual(expect.arrayContaining(['Welcome to Riverside Makers', 'Tool library inventory']));
  });

  it('shows the public side to anyone: the space, its topics, upcoming event, product and public posts', async () => {
    const space = await fetch(`${loopback}/v1/spaces/riverside-makers`);
    expect(space.status).toBe(200);
    expect(await space.json()).toMatchObject({ displayName: 'Riverside Makers', joinMode: 'open' });
    const id = first.spaces[0].id;
    const posts = (await (await fetch(`${loopback}/v1/spaces/${id}/posts`)).json()) as {
      items: { title: string; commentCount?: number }[];
    };
    expect(posts.items.map((post) => post.title).sort()).toEqual([
      'Laser-cut lamp: build log',
      'Looking for a sewing-machine buddy',
      'Welcome to Riverside Makers',
    ]);
    const topics = (await (await fetch(`${loopback}/v1/spaces/${id}/topics`)).json()) as {
      items: { name: string }[];
    };
    expect(topics.items.map((topic) => topic.name)).toEqual(['Announcements', 'Projects']); // not the members-only one
    const events = (await (await fetch(`${loopback}/v1/spaces/${id}/events`)).json()) as {
      items: { title: string }[];
    };
    expect(events.items[0]?.title).toBe('Open workshop night');
    expect((await fetch(`${loopback}/v1/spaces/${id}/products/workshop-card`)).status).toBe(200);
    expect((await fetch(`${loopback}/v1/users/erin`)).status).toBe(200);
  });

  it('a second run reuses the key files and adds nothing', async () => {
    // relay_operations: not even a profile chain is extended again.
    const tables = ['users', 'spaces', 'space_memberships', 'posts', 'comments', 'relay_operations'];
    const before = await Promise.all(tables.map(count));
    const again = await seed();
    expect(again.people).toEqual(first.people);
    expect(again.spaces.map(({ id, created, added }) => ({ id, created, added }))).toEqual(
      first.spaces.map(({ id }) => ({
        id,
        created: false,
        added: { topics: 0, posts: 0, comments: 0, events: 0, products: 0 },
      })),
    );
    expect(await Promise.all(tables.map(count))).toEqual(before);
  });
});
