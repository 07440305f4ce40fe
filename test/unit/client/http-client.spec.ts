import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PlatClient,
  PlatHttpError,
  PlatIdentity,
  PublishRejectedError,
  requestTarget,
  requestUrl,
} from '../../../src/protocol/client';
import { verifyRequestProof } from '../../../src/protocol/auth/domain/request-proof';
import { clock, HOST, NOW, segment } from './helpers';

const identity = PlatIdentity.create({ clock: () => new Date(NOW.getTime() - 60_000) });

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

const DISCOVERY = {
  relayUrl: 'http://api.plat.test/somewhere/relay',
  didMethod: 'plat',
  specUrl: 'https://example/spec',
  endpoints: {
    wellKnown: 'http://api.plat.test/somewhere/relay/.well-known/plat-relay',
    identity: 'http://api.plat.test/somewhere/relay/proof/v1/identities/{did}',
    identityLog: 'http://api.plat.test/somewhere/relay/proof/v1/identities/{did}/log',
    content: 'x',
    contentLog: 'x',
    operation: 'x',
    blob: 'x',
    indexContent: 'x',
    indexIdentities: 'x',
  },
};

/** A fake fetch that records requests and answers from a route table. */
function fakeFetch(routes: Record<string, (seen: Seen) => { status: number; body?: unknown }>) {
  const seen: Seen[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const request: Seen = {
      method: init?.method ?? 'GET',
      url,
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    seen.push(request);
    const route = routes[`${request.method} ${url}`];
    const answer = route
      ? route(request)
      : { status: 404, body: { code: 'E_NOT_FOUND', message: 'Not found' } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }) as typeof fetch;
  return { fetchImpl, seen };
}

function client(fetchImpl: typeof fetch) {
  return new PlatClient({ baseUrl: 'http://api.plat.test/', fetch: fetchImpl, clock });
}

describe('PlatClient', () => {
  it('names the API host as audience unless told otherwise', () => {
    expect(new PlatClient({ baseUrl: 'https://api.plat.example:8443/' }).audience).toBe(
      'api.plat.example:8443',
    );
    expect(new PlatClient({ baseUrl: 'http://127.0.0.1:1', audience: HOST }).audience).toBe(HOST);
    expect(() => new PlatClient({ baseUrl: 'ftp://x' })).toThrow(TypeError);
  });

  it('sends anonymous requests without Authorization and parses JSON', async () => {
    const { fetchImpl, seen } = fakeFetch({
      'GET http://api.plat.test/v1/spaces?limit=2': () => ({ status: 200, body: { items: [] } }),
    });
    const response = await client(fetchImpl).request('GET', '/v1/spaces?limit=2');
    expect(response).toMatchObject({ status: 200, body: { items: [] } });
    expect(seen[0].headers).not.toHaveProperty('authorization');
  });

  it('signs a proof the server verifies, with X-Credential bound by ath and a jti on writes', async () => {
    const { fetchImpl, seen } = fakeFetch({
      'POST http://api.plat.test/v1/spaces/s1/posts?draft=1': () => ({ status: 201, body: { ok: true } }),
    });
    const credential = 'e30.e30.sig';
    const response = await client(fetchImpl).request('post', '/v1/spaces/s1/posts?draft=1', {
      body: { topic: 't', body: 'hi' },
      identity,
      credential,
    });
    expect(response.status).toBe(201);
    const [request] = seen;
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-credential']).toBe(credential);
    expect(request.body).toEqual({ topic: 't', body: 'hi' });
    const verified = await verifyRequestProof(
      {
        method: 'POST',
        target: '/v1/spaces/s1/posts?draft=1',
        authorization: request.headers.authorization,
        credential,
      },
      { audience: 'api.plat.test', now: NOW, stateOf: async () => identity.state },
    );
    expect(verified).toMatchObject({ did: identity.did, isWrite: true });
    expect(verified.jti).toMatch(/^[A-Za-z0-9_-]{16,128}$/);
  });

  it('finds the relay through GET /v1/protocol and publishes {operations} there', async () => {
    const { fetchImpl, seen } = fakeFetch({
      'GET http://api.plat.test/v1/protocol': () => ({ status: 200, body: DISCOVERY }),
      'POST http://api.plat.test/somewhere/relay/proof/v1/operations': ({ body }) => ({
        status: 200,
        body: { results: (body as { operations: string[] }).operations.map(() => ({ status: 'new' })) },
      }),
    });
    const api = client(fetchImpl);
    await expect(api.publishOperations(identity.log)).resolves.toEqual([{ status: 'new' }]);
    expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET http://api.plat.test/v1/protocol',
      'POST http://api.plat.test/somewhere/relay/proof/v1/operations',
    ]);
    expect(seen[1].body).toEqual({ operations: identity.log });
    expect(seen[1].headers).not.toHaveProperty('authorization');
    await api.publishOperations(identity.log);
    expect(seen.filter((request) => request.url.endsWith('/v1/protocol'))).toHaveLength(1); // cached
    await expect(api.endpoint('identity', { did: identity.did })).resolves.toBe(
      `http://api.plat.test/somewhere/relay/proof/v1/identities/${identity.did}`,
    );
  });

  it('reports rejected operations and error statuses', async () => {
    const rejecting = fakeFetch({
      'GET http://api.plat.test/v1/protocol': () => ({ status: 200, body: DISCOVERY }),
      'POST http://api.plat.test/somewhere/relay/proof/v1/operations': () => ({
        status: 200,
        body: { results: [{ status: 'rejected', error: 'bad signature' }] },
      }),
    });
    await expect(client(rejecting.fetchImpl).publishOperations(['x'])).rejects.toThrow(PublishRejectedError);
    await expect(client(rejecting.fetchImpl).publishOperations(['x'])).rejects.toThrow(/bad signature/);

    const missing = fakeFetch({});
    const error = await client(missing.fetchImpl)
      .discover()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatHttpError);
    expect((error as PlatHttpError).status).toBe(404);
    expect((error as Error).message).toContain('E_NOT_FOUND Not found');
  });

  it('reads the identity log page by page from the discovered template', async () => {
    const log = identity.log;
    const base = `http://api.plat.test/somewhere/relay/proof/v1/identities/${identity.did}/log`;
    const { fetchImpl } = fakeFetch({
      'GET http://api.plat.test/v1/protocol': () => ({ status: 200, body: DISCOVERY }),
      [`GET ${base}`]: () => ({
        status: 200,
        body: { entries: [{ cid: 'c1', jwsToken: log[0] }], next: 'c1' },
      }),
      [`GET ${base}?after=c1`]: () => ({ status: 200, body: { entries: [], next: null } }),
    });
    await expect(client(fetchImpl).fetchIdentityLog(identity.did)).resolves.toEqual(log);
  });

  it('claims an account with POST /users and a bare identity proof', async () => {
    const { fetchImpl, seen } = fakeFetch({
      'POST http://api.plat.test/users': () => ({
        status: 201,
        body: { did: identity.did, handle: 'alice' },
      }),
    });
    await expect(client(fetchImpl).createAccount(identity, 'alice', 'Alice')).resolves.toEqual({
      did: identity.did,
      handle: 'alice',
    });
    expect(seen[0].body).toEqual({ handle: 'alice', displayName: 'Alice' });
    expect(seen[0].headers).not.toHaveProperty('x-credential');
    const claims = segment(seen[0].headers.authorization.slice('PLAT '.length), 1);
    expect(claims).toMatchObject({ iss: identity.did, htm: 'POST', htu: '/users', aud: 'api.plat.test' });
    expect(claims.jti).toBeDefined();

    const taken = fakeFetch({
      'POST http://api.plat.test/users': () => ({
        status: 409,
        body: { code: 'E_CONFLICT', message: 'taken' },
      }),
    });
    await expect(client(taken.fetchImpl).createAccount(identity, 'alice')).rejects.toThrow(
      /409: E_CONFLICT taken/,
    );
  });

  it('keeps a base URL path prefix in front of the request path', async () => {
    const { fetchImpl, seen } = fakeFetch({});
    await new PlatClient({ baseUrl: 'http://h.test/api/', fetch: fetchImpl }).request('GET', '/v1/x', {
      identity,
    });
    expect(seen[0].url).toBe('http://h.test/api/v1/x');
    expect(segment(seen[0].headers.authorization.slice(5), 1).htu).toBe('/api/v1/x');
  });
});

describe('requestTarget matches what fetch puts on the wire', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((request, response) => response.end(request.url));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    '/v1/feed',
    '/v1/feed?limit=5&after=a%2Fb',
    '/v1/feed?',
    '/v1/a b?q=é',
    '/v1/a/../b',
    '/v1/x?y#fragment',
    "/v1/x?q='quoted'",
    '/v1/x?bad=%zz&list=[1]|{}',
  ])('%s', async (path) => {
    const url = `http://127.0.0.1:${port}${path}`;
    const sent = await (await fetch(requestUrl(url))).text();
    expect(requestTarget(url)).toBe(sent);
  });
});
