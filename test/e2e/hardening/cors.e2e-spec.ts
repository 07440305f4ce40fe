import request from 'supertest';
import { bootApp, TestApp } from '../../support/app';

const NOT_FOUND = '{"code":"E_NOT_FOUND","message":"Not found"}';
const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

const corsHeaderNames = (response: request.Response) =>
  Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));

const preflight = (t: TestApp, path: string, origin: string, method = 'PATCH') =>
  request(t.http)
    .options(path)
    .set('Origin', origin)
    .set('Access-Control-Request-Method', method)
    .set('Access-Control-Request-Headers', 'authorization,x-credential,content-type,idempotency-key');

/** CORS for browser apps by allow-list, off by default (docs/decisions/0015-cors-by-allow-list-off-by-default.md). */
describe('CORS (e2e)', () => {
  describe('off by default', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await bootApp();
    });

    afterAll(async () => {
      await t?.close();
    });

    it('sends no Access-Control-* header to any origin', async () => {
      const response = await request(t.http).get('/v1/spaces').set('Origin', APP);
      expect(response.status).toBe(200);
      expect(corsHeaderNames(response)).toEqual([]);
      expect(response.headers.vary).toBeUndefined();
    });

    it('answers a preflight as any OPTIONS: the constant 404, charged', async () => {
      const response = await preflight(t, '/profile', APP);
      expect(response.status).toBe(404);
      expect(response.text).toBe(NOT_FOUND);
      expect(corsHeaderNames(response)).toEqual([]);
      expect(response.headers['ratelimit-remaining']).toBeDefined();
    });
  });

  describe('with CORS_ALLOWED_ORIGINS', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await bootApp({ env: { CORS_ALLOWED_ORIGINS: `${APP},http://localhost:5173` } });
    });

    afterAll(async () => {
      await t?.close();
    });

    it('answers an allowed origin’s preflight 204 without auth, naming what the API takes', async () => {
      // An identity-proof write route: a preflight carries no Authorization, and needs none.
      const response = await preflight(t, '/profile', APP);
      expect(response.status).toBe(204);
      expect(response.text ?? '').toBe('');
      expect(response.headers['access-control-allow-origin']).toBe(APP);
      expect(response.headers.vary).toMatch(/\bOrigin\b/);
      expect(response.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
      expect(response.headers['access-control-allow-headers']).toBe(
        'Authorization,X-Credential,Content-Type,Idempotency-Key,X-Request-Id',
      );
      expect(response.headers['access-control-max-age']).toBe('7200');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
      // Security headers as on every answer.
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });

    it('does not charge preflights to any budget', async () => {
      const remaining = async () =>
        Number((await request(t.http).get('/v1/spaces').set('Origin', APP)).headers['ratelimit-remaining']);
      const before = await remaining();
      for (let i = 0; i < 5; i++) {
        const response = await preflight(t, `/v1/spaces/space_${i}/posts`, APP, 'POST');
        expect(response.status).toBe(204);
        expect(response.headers['ratelimit-remaining']).toBeUndefined();
      }
      expect(await remaining()).toBe(before - 1);
    });

    it('lets an allowed origin read answers, errors included, and the headers clients need', async () => {
      for (const [path, status] of [
        ['/v1/spaces', 200],
        ['/v1/no/such/route', 404],
        ['/v1/spaces?limit=0', 400],
      ] as const) {
        const response = await request(t.http).get(path).set('Origin', 'http://localhost:5173');
        expect(response.status).toBe(status);
        expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
        expect(response.headers.vary).toMatch(/\bOrigin\b/);
        expect(response.headers['access-control-expose-headers']).toBe(
          'RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,Retry-After,X-Request-Id',
        );
        expect(response.headers['access-control-allow-credentials']).toBeUndefined();
        if (status === 404) expect(response.text).toBe(NOT_FOUND);
      }
    });

    it.each([
      ['another origin', OTHER],
      ['the opaque origin of a sandboxed page', 'null'],
      ['an allowed origin’s look-alike', 'https://app.example.com.evil.example.net'],
      ['an allowed host over another scheme', 'http://app.example.com'],
    ])('gives %s no CORS header; its preflight is the ordinary 404', async (_case, origin) => {
      const read = await request(t.http).get('/v1/spaces').set('Origin', origin);
      expect(read.status).toBe(200);
      expect(corsHeaderNames(read)).toEqual([]);
      const refused = await preflight(t, '/profile', origin);
      expect(refused.status).toBe(404);
      expect(refused.text).toBe(NOT_FOUND);
      expect(corsHeaderNames(refused)).toEqual([]);
    });

    it('varies every answer on Origin, so a cache never hands one origin’s answer to another', async () => {
      for (const origin of [undefined, OTHER]) {
        const call = request(t.http).get('/openapi.json');
        const response = await (origin ? call.set('Origin', origin) : call);
        expect(response.status).toBe(200);
        expect(response.headers['cache-control']).toBe('public, s-maxage=300');
        expect(response.headers.vary).toMatch(/\bOrigin\b/);
        expect(response.headers['access-control-allow-origin']).toBeUndefined();
      }
    });
  });
});
