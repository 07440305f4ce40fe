import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../../src/cli/plat';
import { readKeyFile } from '../../../src/protocol/client';
import { bootApp, type TestApp } from '../../support/app';

/**
 * Which parts of the service the running app mounts: the relay module (GET /v1/protocol and the
 * relay's proof plane) and the accounts (POST /users, PATCH /profile). A suite whose module is not
 * mounted yet is skipped.
 */
const appModule = readFileSync(join(__dirname, '..', '..', '..', 'src', 'app.module.ts'), 'utf8');
const mounts = (module: string) => new RegExp(`\\b${module}\\b`).test(appModule.replace(/^import .*$/gm, ''));
const withRelay = mounts('RelayModule') ? describe : describe.skip;
const withAccounts = mounts('RelayModule') && mounts('UsersModule') ? describe : describe.skip;

/** A free port, so PUBLIC_BASE_URL (hence the announced relayUrl) can name the port we listen on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Live {
  t: TestApp;
  api: string;
  plat(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

/**
 * Boots the app listening on 127.0.0.1. `listen(0)` alone is not enough: GET /v1/protocol announces
 * `<PUBLIC_BASE_URL>/relay`, so PUBLIC_BASE_URL must name the port the app really listens on.
 */
function liveApp(): Live {
  const live = {} as Live;
  let dir: string;

  beforeAll(async () => {
    const port = await freePort();
    live.api = `http://127.0.0.1:${port}`;
    live.t = await bootApp({ env: { PUBLIC_BASE_URL: live.api } });
    await live.t.app.listen(port, '127.0.0.1');
    dir = await mkdtemp(join(tmpdir(), 'plat-cli-live-'));
    live.plat = async (argv) => {
      let stdout = '';
      let stderr = '';
      const code = await run(argv, {
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
        env: { PLAT_KEYS: join(dir, 'keys.json'), PLAT_API: live.api },
      });
      return { code, stdout, stderr };
    };
  });

  afterAll(async () => {
    await live.t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  return live;
}

withRelay('plat CLI against the running app: relay (e2e)', () => {
  const live = liveApp();

  it('identity create --api publishes the genesis through the relay announced by /v1/protocol', async () => {
    const created = await live.plat(['identity', 'create', '--json']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const body = JSON.parse(created.stdout) as {
      did: string;
      published: { relayUrl: string; results: Array<{ status: string; cid: string }> };
    };
    expect(body.published.relayUrl).toBe(`${live.api}/relay`);
    expect(body.published.results).toEqual([expect.objectContaining({ status: 'new' })]);

    const state = await fetch(`${live.api}/relay/proof/v1/identities/${body.did}`);
    expect(state.status).toBe(200);
    const { identity, file } = await readKeyFile(JSON.parse(created.stdout).keyFile as string);
    expect(((await state.json()) as { headCID: string }).headCID).toBe(identity.headCid);
    expect(file.published).toEqual({ relayUrl: `${live.api}/relay`, headCid: identity.headCid });
  });

  it('identity publish again answers duplicate', async () => {
    const again = await live.plat(['identity', 'publish', '--json']);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    const body = JSON.parse(again.stdout) as { published: { results: Array<{ status: string }> } };
    expect(body.published.results).toEqual([expect.objectContaining({ status: 'duplicate' })]);
  });

  it('credential revoke publishes a revocation the relay then reports', async () => {
    const whoami = JSON.parse((await live.plat(['whoami', '--json'])).stdout) as { did: string };
    const issued = await live.plat([
      'credential',
      'issue',
      '--aud',
      whoami.did,
      '--scope',
      'read:profile',
      '--json',
    ]);
    expect(issued.code).toBe(0);
    const { token, cid } = JSON.parse(issued.stdout) as { token: string; cid: string };

    const revoked = await live.plat(['credential', 'revoke', token]);
    expect(revoked.stderr).toMatch(/published to .*\(new\)/);
    expect(revoked.code).toBe(0);

    const status = await fetch(`${live.api}/relay/revocations/v1/credential/${cid}`);
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ credentialCID: cid, revoked: true });
  });
});

withAccounts('plat CLI against the running app: accounts (e2e)', () => {
  const live = liveApp();

  it('identity create --handle claims the account; plat request signs a PATCH /profile', async () => {
    const created = await live.plat(['identity', 'create', '--handle', 'cli-alice', '--json']);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const body = JSON.parse(created.stdout) as { did: string; account: { handle: string } };
    expect(body.account.handle).toBe('cli-alice');

    // Profiles start private (docs/decisions/0032-accounts-and-profiles.md): the public read is the 404 until opted in.
    expect((await fetch(`${live.api}/v1/users/cli-alice`)).status).toBe(404);

    const patched = await live.plat([
      'request',
      'PATCH',
      '/profile',
      '--data',
      '{"bio":"from the CLI","isPublic":true}',
      '--json',
    ]);
    expect(patched.stderr).toBe('');
    expect(patched.code).toBe(0);
    expect((JSON.parse(patched.stdout) as { body: { bio: string } }).body.bio).toBe('from the CLI');

    const profile = await fetch(`${live.api}/v1/users/cli-alice`);
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as { did: string }).did).toBe(body.did);
  });
});
