import type { Server } from 'node:http';
import { connect } from 'node:net';
import request from 'supertest';
import { bootApp, TestApp } from '../support/app';
import { closedPort } from '../support/network';

const NOT_FOUND = '{"code":"E_NOT_FOUND","message":"Not found"}';
const MALFORMED_BODY = '{"code":"E_INVALID_REQUEST","message":"Malformed request body"}';

/** design.md §5: `no-store` on every error, the limiter's refusals included. */
describe('foundation: limiter refusals are not cached (e2e)', () => {
  const expectUncachedEnvelope = (response: request.Response, status: number, code: string) => {
    expect(response.status).toBe(status);
    expect(response.body.code).toBe(code);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
  };

  it('a 429 E_RATE_LIMITED carries no-store', async () => {
    const t = await bootApp({ env: { RATE_LIMIT_IP_READS: '1' } });
    try {
      expect((await request(t.http).get('/v1/spaces')).status).toBe(200);
      expectUncachedEnvelope(await request(t.http).get('/v1/spaces'), 429, 'E_RATE_LIMITED');
    } finally {
      await t.close();
    }
  });

  it('a 503 E_SERVICE_UNAVAILABLE (budget store unreachable) carries no-store', async () => {
    const t = await bootApp({
      env: {
        REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
        // ioredis leaves a connect timer of max(REDIS_TIMEOUT_MS, 1 s) behind for a refused
        // connection; kept short and run first so it is gone before the file ends.
        REDIS_TIMEOUT_MS: '200',
      },
    });
    try {
      expectUncachedEnvelope(await request(t.http).get('/v1/spaces'), 503, 'E_SERVICE_UNAVAILABLE');
    } finally {
      await t.close();
    }
  });
});

/** Requests a careless or hostile client sends: none may be a 500, none may go without the envelope. */
describe('foundation: odd requests (e2e)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await bootApp();
    await t.app.listen(0, '127.0.0.1');
    port = ((t.app.getHttpServer() as Server).address() as { port: number }).port;
  });

  afterAll(async () => {
    await t.close();
  });

  describe('page size and cursors (design.md §7: not an integer in 1..100 is 400)', () => {
    it.each(['1e1', '0x10', '%2B5', '%2010', '10%20', '99999999999999999999'])(
      'limit=%s is 400 with the limit detail',
      async (limit) => {
        const response = await request(t.http).get(`/v1/spaces?limit=${limit}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          code: 'E_INVALID_REQUEST',
          message: 'Invalid request',
          details: [{ path: 'limit', message: 'limit must be an integer from 1 to 100' }],
        });
      },
    );

    it.each([
      ['an empty after', 'after=', 'after'],
      ['an empty before', 'before=', 'before'],
      ['a repeated after', 'after=a&after=b', 'after'],
      ['an after object', 'after[x]=a', 'after[x]'],
    ])('%s is 400 with one detail', async (_case, query, path) => {
      const response = await request(t.http).get(`/v1/spaces?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('E_INVALID_REQUEST');
      expect(response.body.details).toHaveLength(1);
      expect(response.body.details[0].path).toBe(path);
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('an empty after next to a real before is refused, not read as a backward walk', async () => {
      const response = await request(t.http).get('/v1/spaces?after=&before=x.y');
      expect(response.status).toBe(400);
    });
  });

  describe('methods and paths', () => {
    it.each([
      ['delete', '/v1/spaces'],
      ['put', '/v1/spaces'],
      ['post', '/health/ready'],
      ['delete', '/openapi.json'],
      ['post', '/llms.txt'],
    ] as const)('%s %s (no such route for that method) is the constant 404', async (method, path) => {
      const response = await request(t.http)[method](path);
      expect(response.status).toBe(404);
      expect(response.text).toBe(NOT_FOUND);
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it.each(['/v1/spaces/%00', '/v1/spaces/space_%FF%FE', '/v1/spaces/..%2F..%2Fetc', '/v1/users/%C0%AF'])(
      'an id of URL-encoded garbage (%s) is the constant 404',
      async (path) => {
        const response = await request(t.http).get(path);
        expect(response.status).toBe(404);
        expect(response.text).toBe(NOT_FOUND);
      },
    );

    it('HEAD of a health route answers its status and no body', async () => {
      const response = await request(t.http).head('/health/ready');
      expect(response.status).toBe(200);
      expect(response.text ?? '').toBe('');
      expect(response.headers['cache-control']).toBe('no-store');
    });
  });

  describe('request bodies', () => {
    // supertest would serialize a Buffer as JSON, so these go through fetch with raw bytes.
    const postBytes = (path: string, bytes: Uint8Array) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: bytes,
      });

    it('refuses a JSON body that is not UTF-8 instead of storing U+FFFD', async () => {
      const bytes = Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]); // {"\xff\xfe":1}
      const response = await postBytes('/relay/proof/v1/operations', bytes);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe(MALFORMED_BODY);
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it('still accepts multi-byte UTF-8', async () => {
      const bytes = new TextEncoder().encode('{"operations":["ünïcødé 🚀"]}');
      const response = await postBytes('/relay/proof/v1/operations', bytes);
      // Parsed, then judged by the relay: the operation is rejected, the body was not malformed.
      expect(await response.text()).not.toBe(MALFORMED_BODY);
      expect(response.status).not.toBe(500);
    });

    it('answers a null body with 400 E_INVALID_REQUEST', async () => {
      const response = await request(t.http)
        .post('/v1/key-proof/present')
        .set('Content-Type', 'application/json')
        .send('null');
      expect(response.status).toBe(400);
      expect(response.text).toBe(MALFORMED_BODY);
    });
  });

  describe('requests Node refuses before Express (clientError)', () => {
    it.each([
      ['a broken request line', 'GARBAGE\r\n\r\n'],
      ['a control byte in a header value', 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'],
      ['a header line without a colon', 'GET /health/live HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n'],
      [
        'headers over the size cap',
        `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(400 * 1024)}\r\n\r\n`,
      ],
    ])('%s gets the envelope with no-store, not a bare 400', async (_case, raw) => {
      const answer = await rawExchange(port, raw);
      const [head, body] = answer.split('\r\n\r\n');
      const lines = head.split('\r\n');
      expect(lines[0]).toBe('HTTP/1.1 400 Bad Request');
      expect(lines).toContain('Content-Type: application/json; charset=utf-8');
      expect(lines).toContain('Cache-Control: no-store');
      expect(lines.some((line) => /^X-Request-Id: [0-9a-f-]{36}$/.test(line))).toBe(true);
      expect(body).toBe('{"code":"E_INVALID_REQUEST","message":"Malformed request"}');
    });

    it('keeps serving ordinary requests afterwards', async () => {
      expect((await request(t.http).get('/health/live')).status).toBe(200);
    });
  });
});

/** Writes raw bytes and reads until the server closes the connection. */
function rawExchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    // The server may close while a large request is still being written.
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE'
        ? resolve(Buffer.concat(chunks).toString('utf8'))
        : reject(error),
    );
    socket.write(raw);
  });
}
