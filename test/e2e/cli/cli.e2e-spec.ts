import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type CliIo } from '../../../src/cli/plat';
import { verifyRequestProof } from '../../../src/protocol/auth/domain/request-proof';
import { PlatIdentity, readKeyFile } from '../../../src/protocol/client';
import {
  resolveCurrentKey,
  verifyCredential,
  verifyIdentityChain,
  verifyRevocation,
} from '../../../src/protocol/core';

const DID_PATTERN = /did:plat:[2346789acdefhknrtvz]{31}/;
const HOST = 'api.plat.test';

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

/** A fetch that fails the test when called: offline commands must not touch the network. */
const noNetwork = (async (input: string | URL | Request) => {
  throw new Error(`unexpected network access: ${String(input)}`);
}) as typeof fetch;

describe('plat CLI (in-process)', () => {
  let dir: string;
  let keys: string;

  async function plat(
    argv: string[],
    io: Partial<CliIo> = {},
  ): Promise<Captured & { json: () => Record<string, unknown> }> {
    let stdout = '';
    let stderr = '';
    const code = await run(argv, {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      env: { PLAT_KEYS: keys },
      fetch: noNetwork,
      homedir: () => dir,
      ...io,
    });
    return { code, stdout, stderr, json: () => JSON.parse(stdout) as Record<string, unknown> };
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plat-cli-'));
    keys = join(dir, 'keys.json');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  describe('identity create (offline)', () => {
    it('creates keys and a verified genesis in a 0600 key file, without network', async () => {
      const result = await plat(['identity', 'create']);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      const did = DID_PATTERN.exec(result.stdout)![0];
      expect(result.stdout).toContain(`Created identity ${did}`);
      expect(result.stdout).toContain(`Key file: ${keys} (mode 0600)`);
      expect(result.stdout).toMatch(/key_\w+ {2}controller\n/);
      expect(result.stdout).toMatch(/key_\w+ {2}auth\n/);
      expect(result.stdout).toContain('Not published (offline)');

      expect((await stat(keys)).mode & 0o777).toBe(0o600);
      const file = JSON.parse(await readFile(keys, 'utf8')) as { did: string; log: string[] };
      expect(file.did).toBe(did);
      expect(verifyIdentityChain(file.log, { expectedDid: did }).state.controllerKeys).toHaveLength(1);
    });

    it('prints JSON with --json, adds an assert key with --assert, and whoami agrees', async () => {
      const created = await plat(['identity', 'create', '--assert', '--json']);
      expect(created.code).toBe(0);
      const body = created.json();
      expect(body).toMatchObject({ keyFile: keys, published: null, account: null });
      expect(body.did).toMatch(DID_PATTERN);
      expect((body.keys as Array<{ roles: string[] }>).map((key) => key.roles)).toEqual([
        ['controller'],
        ['auth'],
        ['assert'],
      ]);

      const whoami = await plat(['whoami', '--json']);
      expect(whoami.code).toBe(0);
      expect(whoami.json()).toMatchObject({ did: body.did, headCid: body.headCid, operations: 1 });

      const human = await plat(['whoami']);
      expect(human.stdout.split('\n')[0]).toBe(body.did);
      expect(human.stdout).toContain('Published: no');
      expect(human.stdout).toContain('Account: none claimed');
    });

    it('uses ~/.config/plat/keys.json by default', async () => {
      const result = await plat(['identity', 'create'], { env: {} });
      expect(result.code).toBe(0);
      const path = join(dir, '.config', 'plat', 'keys.json');
      expect(result.stdout).toContain(`Key file: ${path}`);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
    });

    it('refuses to replace an existing key file unless --force', async () => {
      await plat(['identity', 'create']);
      const before = await readFile(keys, 'utf8');
      const again = await plat(['identity', 'create']);
      expect(again.code).toBe(3);
      expect(again.stderr).toMatch(/already exists; refusing to overwrite it.*--force/);
      expect(await readFile(keys, 'utf8')).toBe(before);

      const forced = await plat(['identity', 'create', '--force']);
      expect(forced.code).toBe(0);
      expect(await readFile(keys, 'utf8')).not.toBe(before);
    });

    it('refuses a key file readable by group or others, with a clear message', async () => {
      await plat(['identity', 'create']);
      await chmod(keys, 0o644);
      const result = await plat(['whoami']);
      expect(result.code).toBe(3);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`key file ${keys} has mode 0644`);
      expect(result.stderr).toContain(`chmod 600 ${keys}`);
    });
  });

  describe('credential issue and revoke (offline)', () => {
    let app: PlatIdentity;

    beforeEach(async () => {
      await plat(['identity', 'create', '--assert']);
      app = PlatIdentity.create();
    });

    it('prints a credential that verifies for the app and host', async () => {
      const result = await plat([
        'credential',
        'issue',
        '--aud',
        app.did,
        '--scope',
        'read:posts,write:posts',
        '--scope',
        'read:profile',
        '--space',
        '*',
        '--expires',
        '2h',
        '--host',
        HOST,
      ]);
      expect(result.code).toBe(0);
      const token = result.stdout.trim();
      expect(token.split('.')).toHaveLength(3);
      const { identity: person } = await readKeyFile(keys);
      const verified = await verifyCredential(token, {
        resolveIssuerKey: (kid) => resolveCurrentKey(person.state, kid).publicKey,
        isRevoked: () => false,
        now: new Date(),
        expectedAudience: app.did,
        expectedHost: HOST,
      });
      expect(verified.issuer).toBe(person.did);
      expect(verified.att).toEqual([
        { resource: 'space:*', action: 'read:posts,write:posts' },
        { resource: `account:${person.did}`, action: 'read:profile' },
      ]);
      expect(verified.payload.exp - verified.payload.iat).toBe(2 * 3600 + 60); // iat backdated 60 s
      expect(result.stderr).toContain(
        `Credential ${verified.cid} from ${person.did} to ${app.did} for ${HOST}`,
      );
    });

    it('names the API host by default and prints JSON with --json', async () => {
      const result = await plat(
        ['credential', 'issue', '--aud', app.did, '--scope', 'read:memberships', '--json'],
        { env: { PLAT_KEYS: keys, PLAT_API: 'https://api.plat.example' } },
      );
      expect(result.code).toBe(0);
      const body = result.json() as { cid: string; token: string; payload: { host: string; att: unknown[] } };
      expect(body.payload.host).toBe('api.plat.example');
      expect(body.cid).toMatch(/^bafyrei/);
      expect(body.payload.att).toHaveLength(1);
    });

    it.each([
      [['--scope', 'read:posts', '--space', '*'], /--aud <appDid> is required/],
      [['--aud', 'APP'], /at least one --scope/],
      [['--aud', 'APP', '--scope', 'read:everything'], /unknown scope read:everything/],
      [['--aud', 'APP', '--scope', 'read:posts'], /need a space/],
      [['--aud', 'APP', '--scope', 'read:profile', '--expires', '1y'], /not a duration/],
      [['--aud', 'APP', '--scope', 'read:profile', '--data', '{}'], /does not take --data/],
    ])('refuses %j', async (args, message) => {
      const result = await plat([
        'credential',
        'issue',
        ...args.map((arg) => (arg === 'APP' ? app.did : arg)),
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    });

    it('signs a revocation offline (token, or from stdin)', async () => {
      const issued = await plat([
        'credential',
        'issue',
        '--aud',
        app.did,
        '--scope',
        'read:profile',
        '--json',
      ]);
      const { token, cid } = issued.json() as { token: string; cid: string };
      const revoked = await plat(['credential', 'revoke', token, '--offline']);
      expect(revoked.code).toBe(0);
      expect(revoked.stderr).toContain(`of ${cid} signed, not published (--offline)`);
      const { identity: person } = await readKeyFile(keys);
      const verified = await verifyRevocation(revoked.stdout.trim(), {
        resolveKey: (kid) => resolveCurrentKey(person.state, kid).publicKey,
        expectedIssuer: person.did,
        expectedCredentialCid: cid,
      });
      expect(verified.payload.did).toBe(person.did);

      const fromStdin = await plat(['credential', 'revoke', '-', '--offline', '--json'], {
        readStdin: async () => `${token}\n`,
      });
      expect(fromStdin.json()).toMatchObject({ credentialCID: cid, published: null });
    });
  });

  describe('online commands against a fake API', () => {
    const relay = 'http://api.test/relay';

    function fakeApi(handlers: Record<string, (init: RequestInit, url: string) => Response>) {
      const calls: Array<{ method: string; url: string; init: RequestInit }> = [];
      const fetchImpl = (async (input: string | URL | Request, init: RequestInit = {}) => {
        const url = String(input);
        calls.push({ method: init.method ?? 'GET', url, init });
        const handler = handlers[`${init.method ?? 'GET'} ${url}`];
        return handler
          ? handler(init, url)
          : Response.json({ code: 'E_NOT_FOUND', message: 'Not found' }, { status: 404 });
      }) as typeof fetch;
      return { fetchImpl, calls };
    }

    const discovery = () =>
      Response.json({ relayUrl: relay, didMethod: 'plat', specUrl: 'x', endpoints: {} }, { status: 200 });

    it('identity create --api publishes the genesis through the discovered relay and claims the handle', async () => {
      let published: string[] = [];
      let proof = '';
      const { fetchImpl, calls } = fakeApi({
        'GET http://api.test/v1/protocol': discovery,
        [`POST ${relay}/proof/v1/operations`]: (init) => {
          published = (JSON.parse(String(init.body)) as { operations: string[] }).operations;
          return Response.json({ results: published.map(() => ({ status: 'new' })) });
        },
        'POST http://api.test/users': (init) => {
          proof = (init.headers as Record<string, string>).authorization;
          return Response.json({ handle: 'alice' }, { status: 201 });
        },
      });
      const result = await plat(
        ['identity', 'create', '--api', 'http://api.test', '--handle', 'Alice', '--host', HOST],
        { fetch: fetchImpl },
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
        'GET http://api.test/v1/protocol',
        `POST ${relay}/proof/v1/operations`,
        'POST http://api.test/users',
      ]);
      const { identity, file } = await readKeyFile(keys);
      expect(published).toEqual([identity.genesis]);
      expect(result.stdout).toContain(`Published 1 operation(s) to ${relay} (new)`);
      expect(result.stdout).toContain('Claimed account @alice on http://api.test');
      expect(file.account).toEqual({ api: 'http://api.test', handle: 'alice' });
      expect(file.published).toEqual({ relayUrl: relay, headCid: identity.headCid });
      await expect(
        verifyRequestProof(
          { method: 'POST', target: '/users', authorization: proof },
          { audience: HOST, now: new Date(), stateOf: async () => identity.state },
        ),
      ).resolves.toMatchObject({ did: identity.did, isWrite: true });
    });

    it('keeps the keys and says how to retry when publishing is refused', async () => {
      const { fetchImpl } = fakeApi({
        'GET http://api.test/v1/protocol': discovery,
        [`POST ${relay}/proof/v1/operations`]: () =>
          Response.json({ results: [{ status: 'rejected', error: 'nope' }] }),
      });
      const result = await plat(['identity', 'create', '--api', 'http://api.test'], { fetch: fetchImpl });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('plat identity publish');
      expect(result.stderr).toContain('nope');
      expect((await readKeyFile(keys)).file.published).toBeUndefined();
    });

    it('request signs a proof, sends the body and credential, prints status and body', async () => {
      await plat(['identity', 'create']);
      const { identity } = await readKeyFile(keys);
      let seen: { authorization: string; credential?: string; body?: string } | undefined;
      const { fetchImpl } = fakeApi({
        'PATCH http://api.test/profile?x=1': (init) => {
          const headers = init.headers as Record<string, string>;
          seen = {
            authorization: headers.authorization,
            credential: headers['x-credential'],
            body: String(init.body),
          };
          return Response.json({ handle: 'alice' });
        },
      });
      const env = { PLAT_KEYS: keys, PLAT_API: 'http://api.test', PLAT_HOST: HOST };
      const result = await plat(['request', 'patch', '/profile?x=1', '--data', '{"bio":"hi"}'], {
        fetch: fetchImpl,
        env,
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('HTTP 200\n{\n  "handle": "alice"\n}\n');
      expect(seen!.body).toBe('{"bio":"hi"}');
      await expect(
        verifyRequestProof(
          { method: 'PATCH', target: '/profile?x=1', authorization: seen!.authorization },
          { audience: HOST, now: new Date(), stateOf: async () => identity.state },
        ),
      ).resolves.toMatchObject({ did: identity.did });

      const missing = await plat(['request', 'GET', '/v1/nothing', '--json'], { fetch: fetchImpl, env });
      expect(missing.code).toBe(4);
      expect(missing.json()).toEqual({ status: 404, body: { code: 'E_NOT_FOUND', message: 'Not found' } });

      const credential = await plat(
        ['credential', 'issue', '--aud', PlatIdentity.create().did, '--scope', 'read:profile'],
        { env },
      );
      const withCredential = await plat(
        ['request', 'GET', '/v1/nothing', '--credential', credential.stdout.trim()],
        {
          fetch: fetchImpl,
          env,
        },
      );
      expect(withCredential.stderr).toContain('warning: the credential is addressed to');
    });
  });

  describe('usage', () => {
    it.each([
      [['--help'], 0],
      [['help', 'credential', 'issue'], 0],
      [['request', '--help'], 0],
      [[], 2],
      [['frobnicate'], 2],
      [['identity'], 2],
      [['request', 'GET'], 2],
      [['request', 'GET', 'v1/profile'], 2],
      [['whoami', '--nope'], 2],
    ])('plat %j exits %i', async (argv, code) => {
      const result = await plat(argv);
      expect(result.code).toBe(code);
      if (code === 0) expect(result.stdout).toContain('plat');
      else expect(result.stderr).not.toBe('');
    });

    it('reports a missing key file with exit code 3', async () => {
      const result = await plat(['whoami']);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('plat identity create');
    });
  });
});
