import { Controller, Get } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Anonymous } from '../../src/common/auth/access.decorators';
import { RateLimitClass } from '../../src/infrastructure/rate-limit/rate-limit-class';
import { ShutdownState } from '../../src/infrastructure/health/shutdown-state';
import { bootApp, TestApp } from '../support/app';

const NOT_FOUND = '{"code":"E_NOT_FOUND","message":"Not found"}';

/** Test-only routes that fail the way server code can fail. */
@Controller('test-failures')
@Anonymous()
@RateLimitClass('read')
class FailingController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('throw')
  throwPlain(): never {
    throw new Error('boom at /srv/app/secret.ts:12 password=hunter2');
  }

  @Get('sql')
  async badSql(): Promise<unknown> {
    return this.dataSource.query('SELECT secret_column FROM no_such_table_xyz');
  }
}

describe('foundation (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootApp({ controllers: [FailingController] });
  });

  afterAll(async () => {
    await t.close();
  });

  describe('404', () => {
    it.each([
      ['GET', '/nope'],
      ['GET', '/v1/nothing/here?x=1'],
      ['POST', '/v1/unknown'],
      ['DELETE', '/health/live/extra'],
    ])('%s %s answers the one 404 body', async (method, path) => {
      const response = await request(t.http)[method.toLowerCase() as 'get'](path);
      expect(response.status).toBe(404);
      expect(response.text).toBe(NOT_FOUND);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-powered-by']).toBeUndefined();
      expect(response.headers.etag).toBeUndefined();
    });

    it('has the same header set for every 404', async () => {
      const names = async (path: string) =>
        Object.keys((await request(t.http).get(path)).headers)
          .filter((name) => name !== 'date')
          .sort();
      expect(await names('/a')).toEqual(await names('/v1/spaces/space_zz/unknown'));
    });

    // api-spec.md "What the service does" 7 and design.md §5: unknown route, unknown id and
    // malformed id (on a real route) answer the same bytes with the same headers.
    const variants: [string, string][] = [
      ['unknown route', '/v1/no/such/route'],
      ['unknown route under /health', '/health/nope'],
      ['unknown space id', '/v1/spaces/space_0190f1a2b3c4d5e6f708192a3b4c5d6e'],
      ['malformed space id', '/v1/spaces/space_not-an-id'],
      ['unknown user', '/v1/users/nobody-here'],
      ['malformed user id', '/v1/users/identity_zz'],
      ['undecodable percent-encoding in an id', '/v1/spaces/%E0%A4%A'],
      ['undecodable percent-encoding under a listing', '/v1/spaces/%ZZ/pages'],
      ['malformed page id of an unknown space', '/v1/spaces/space_zz/pages/page_zz'],
      ['malformed DID on the relay', '/relay/proof/v1/identities/did:plat:nope'],
      ['unknown invite code (optional-auth route)', '/spaces/invites/NOSUCHCODE'],
    ];

    const describe404 = async (method: 'get' | 'head' | 'options' | 'patch', path: string) => {
      const response = await request(t.http)[method](path);
      const headers = { ...response.headers };
      // Per-response values: the request id, the date and the remaining budget.
      for (const name of ['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset']) {
        expect(headers[name]).toBeDefined();
        delete headers[name];
      }
      return { status: response.status, text: response.text ?? '', headers };
    };

    it.each(variants)('%s: same status, bytes and headers as any 404 (%s)', async (_case, path) => {
      const reference = await describe404('get', '/nope');
      expect(reference.text).toBe(NOT_FOUND);
      expect(await describe404('get', path)).toEqual(reference);
    });

    it.each(variants)('%s: HEAD carries the GET header set and no body (%s)', async (_case, path) => {
      const reference = await describe404('get', '/nope');
      const head = await describe404('head', path);
      expect(head.status).toBe(404);
      expect(head.text).toBe('');
      expect(head.headers).toEqual(reference.headers);
      expect(head.headers['content-length']).toBe(String(NOT_FOUND.length));
    });

    it.each([
      ['options', '/v1/spaces'],
      ['patch', '/v1/spaces'],
      ['options', '/nope'],
    ] as const)('an unrouted method (%s %s) is the same 404', async (method, path) => {
      expect(await describe404(method, path)).toEqual(await describe404('get', '/nope'));
    });
  });

  describe('content of data responses', () => {
    it('a listing answers the page envelope with no-store and the request id', async () => {
      const response = await request(t.http).get('/v1/spaces').set('X-Request-Id', 'listing-1');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-request-id']).toBe('listing-1');
      expect(response.body).toEqual({ items: [], nextCursor: null, previousCursor: null });
    });

    it('HEAD of a listing has the GET headers and no body', async () => {
      const get = await request(t.http).get('/v1/spaces');
      const head = await request(t.http).head('/v1/spaces');
      expect(head.status).toBe(200);
      expect(head.text ?? '').toBe('');
      expect(head.headers['content-length']).toBe(get.headers['content-length']);
      expect(head.headers['cache-control']).toBe('no-store');
      expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    });
  });

  describe('listing input on a real listing (GET /v1/spaces)', () => {
    const LIMIT_DETAIL = {
      code: 'E_INVALID_REQUEST',
      message: 'Invalid request',
      details: [{ path: 'limit', message: 'limit must be an integer from 1 to 100' }],
    };

    it.each(['0', '101', '-1', '1.5', 'abc', '', '1&limit=2'])(
      'limit=%s is 400 with details',
      async (limit) => {
        const response = await request(t.http).get(`/v1/spaces?limit=${limit}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(LIMIT_DETAIL);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.headers['cache-control']).toBe('no-store');
      },
    );

    it.each(['1', '100'])('limit=%s is accepted', async (limit) => {
      expect((await request(t.http).get(`/v1/spaces?limit=${limit}`)).status).toBe(200);
    });

    it.each(['after', 'before'])('a %s cursor that does not verify is 400', async (name) => {
      const response = await request(t.http).get(`/v1/spaces?${name}=bm90LWEtY3Vyc29y.c2lnbmF0dXJl`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'E_INVALID_REQUEST',
        message: 'Invalid cursor',
        details: [{ path: name, message: `${name} is not a cursor of this listing` }],
      });
    });

    it('after and before together are 400', async () => {
      const response = await request(t.http).get('/v1/spaces?after=a&before=b');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        code: 'E_INVALID_REQUEST',
        message: 'Pass either after or before, not both',
        details: [{ path: 'before', message: 'pass either after or before, not both' }],
      });
      expect(response.headers['cache-control']).toBe('no-store');
    });
  });

  describe('request bodies', () => {
    it('answers malformed JSON with 400 E_INVALID_REQUEST', async () => {
      const response = await request(t.http)
        .post('/v1/anything')
        .set('Content-Type', 'application/json')
        .send('{"broken": ');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 'E_INVALID_REQUEST', message: 'Malformed request body' });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-request-id']).toBeDefined();
    });

    it.each([
      ['a top-level string', 'application/json', '"text"'],
      ['a top-level null', 'application/json', 'null'],
      ['an unsupported charset (no 415 in design.md §5)', 'application/json; charset=latin1', '{}'],
    ])('answers %s with 400 E_INVALID_REQUEST', async (_case, type, body) => {
      const response = await request(t.http).post('/v1/anything').set('Content-Type', type).send(body);
      expect(response.status).toBe(400);
      expect(response.text).toBe('{"code":"E_INVALID_REQUEST","message":"Malformed request body"}');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('answers an unsupported Content-Encoding with 400, not 415', async () => {
      const response = await request(t.http)
        .post('/v1/anything')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'x-unknown')
        .send('{}');
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('E_INVALID_REQUEST');
    });

    it('answers a body over 1 MiB with 413 E_PAYLOAD_TOO_LARGE', async () => {
      const big = JSON.stringify({ data: 'x'.repeat(1024 * 1024) });
      const response = await request(t.http)
        .post('/v1/anything')
        .set('Content-Type', 'application/json')
        .send(big);
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ code: 'E_PAYLOAD_TOO_LARGE', message: 'Payload too large' });
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('accepts a body just under 1 MiB (then routes it: 404 here)', async () => {
      const body = JSON.stringify({ data: 'x'.repeat(1024 * 1024 - 20) });
      const response = await request(t.http)
        .post('/v1/anything')
        .set('Content-Type', 'application/json')
        .send(body);
      expect(response.status).toBe(404);
    });
  });

  describe('request ids', () => {
    it('echoes a sane X-Request-Id', async () => {
      const response = await request(t.http).get('/health/live').set('X-Request-Id', 'abc-123');
      expect(response.headers['x-request-id']).toBe('abc-123');
    });

    it.each([
      ['a 404', 'get', '/nope'],
      ['a 400', 'get', '/v1/spaces?limit=0'],
      ['a 401', 'get', '/v1/profile'],
    ] as const)('echoes it on %s', async (_case, method, path) => {
      const response = await request(t.http)[method](path).set('X-Request-Id', 'err:1.2_3');
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.headers['x-request-id']).toBe('err:1.2_3');
    });

    it('echoes it on a 413 refused by the body parser', async () => {
      const response = await request(t.http)
        .post('/v1/anything')
        .set('Content-Type', 'application/json')
        .set('X-Request-Id', 'big-body')
        .send(JSON.stringify({ data: 'x'.repeat(1024 * 1024) }));
      expect(response.status).toBe(413);
      expect(response.headers['x-request-id']).toBe('big-body');
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('replaces an unusable X-Request-Id with a fresh one', async () => {
      const response = await request(t.http).get('/health/live').set('X-Request-Id', 'bad id with spaces');
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('health', () => {
    it('GET /health/live is 200 and not cached', async () => {
      const response = await request(t.http).get('/health/live');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ok' });
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('GET /health/ready answers for this replica: 200 {status: ok}, not cached', async () => {
      const response = await request(t.http).get('/health/ready');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'ok' });
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('GET /health/ready is 503 E_SERVICE_UNAVAILABLE while draining', async () => {
      const shutdown = t.app.get(ShutdownState);
      shutdown.draining = true;
      try {
        const response = await request(t.http).get('/health/ready');
        expect(response.status).toBe(503);
        expect(response.text).toBe(
          '{"code":"E_SERVICE_UNAVAILABLE","message":"Service temporarily unavailable"}',
        );
        expect(response.headers['cache-control']).toBe('no-store');
        expect((await request(t.http).get('/health/live')).status).toBe(200);
      } finally {
        shutdown.draining = false;
      }
    });
  });

  describe('unexpected failures (design.md §5: 500 E_INTERNAL, no stack, no SQL)', () => {
    it.each(['/test-failures/throw', '/test-failures/sql'])('%s answers the bare 500', async (path) => {
      const response = await request(t.http).get(path).set('X-Request-Id', 'fail-1');
      expect(response.status).toBe(500);
      expect(response.text).toBe('{"code":"E_INTERNAL","message":"Internal error"}');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-request-id']).toBe('fail-1');
    });
  });
});
