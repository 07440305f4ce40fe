import type { Server } from 'node:http';
import { connect } from 'node:net';
import request from 'supertest';
import { bootApp, TestApp } from '../../support/app';

const NOT_FOUND = '{"code":"E_NOT_FOUND","message":"Not found"}';
const HSTS = 'max-age=31536000; includeSubDomains';

/** What every answer carries (docs/decisions/0014-response-headers-no-etag-security-headers-on-every-answer.md): a JSON API that no page may frame or sniff. */
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  // Cross-origin embedding is allowed on purpose (docs/decisions/0014-response-headers-no-etag-security-headers-on-every-answer.md): no cookies, so nothing to protect.
  'cross-origin-resource-policy': 'cross-origin',
};

/** helmet defaults left out (they concern HTML documents or dead browsers), and what never goes. */
const ABSENT = [
  'x-powered-by',
  'cross-origin-opener-policy',
  'cross-origin-embedder-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

function expectSecurityHeaders(headers: Record<string, string | undefined>): void {
  expect(headers).toEqual(expect.objectContaining(SECURITY_HEADERS));
  for (const name of ABSENT) expect(headers[name]).toBeUndefined();
}

describe('security headers (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('are on a 200 data answer', async () => {
    const response = await request(t.http).get('/v1/spaces');
    expect(response.status).toBe(200);
    expectSecurityHeaders(response.headers);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('are on the constant 404 of an unknown route, whose bytes do not change', async () => {
    for (const method of ['get', 'post', 'options'] as const) {
      const response = await request(t.http)[method]('/v1/no/such/route');
      expect(response.status).toBe(404);
      expect(response.text).toBe(NOT_FOUND);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expectSecurityHeaders(response.headers);
    }
  });

  it('are on a 400 and on the static artifacts', async () => {
    const invalid = await request(t.http).get('/v1/spaces?limit=0');
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('E_INVALID_REQUEST');
    expectSecurityHeaders(invalid.headers);
    const malformed = await request(t.http)
      .post('/relay/proof/v1/operations')
      .set('Content-Type', 'application/json')
      .send('{');
    expect(malformed.status).toBe(400);
    expectSecurityHeaders(malformed.headers);
    const artifact = await request(t.http).get('/openapi.json');
    expect(artifact.status).toBe(200);
    expectSecurityHeaders(artifact.headers);
  });

  it('are on the 400 Node answers itself for a request its parser refuses', async () => {
    const server = t.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const answer = await rawExchange(port, 'GARBAGE\r\n\r\n');
      const [head, body] = answer.split('\r\n\r\n');
      const lines = head.split('\r\n');
      expect(lines[0]).toBe('HTTP/1.1 400 Bad Request');
      const headers = Object.fromEntries(
        lines.slice(1).map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      expectSecurityHeaders(headers);
      expect(body).toBe('{"code":"E_INVALID_REQUEST","message":"Malformed request"}');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('are on a 429', async () => {
    const limited = await bootApp({ databaseUrl: t.databaseUrl, env: { RATE_LIMIT_IP_ALL: '1' } });
    try {
      expect((await request(limited.http).get('/v1/spaces')).status).toBe(200);
      const refused = await request(limited.http).get('/v1/spaces');
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('E_RATE_LIMITED');
      expectSecurityHeaders(refused.headers);
      const artifact = await request(limited.http).get('/llms.txt');
      expect(artifact.status).toBe(429);
      expect(artifact.text).toBe('Too many requests\n');
      expectSecurityHeaders(artifact.headers);
    } finally {
      await limited.close();
    }
  });

  describe('Strict-Transport-Security, only over TLS', () => {
    let trusting: TestApp;

    beforeAll(async () => {
      trusting = await bootApp({ databaseUrl: t.databaseUrl, env: { TRUST_PROXY: 'true' } });
    });

    afterAll(async () => {
      await trusting?.close();
    });

    it('is not sent on plain HTTP', async () => {
      const response = await request(trusting.http).get('/v1/spaces');
      expect(response.headers['strict-transport-security']).toBeUndefined();
    });

    it('is sent when a trusted proxy says the request came over https, errors included', async () => {
      for (const path of ['/v1/spaces', '/v1/no/such/route']) {
        const response = await request(trusting.http).get(path).set('X-Forwarded-Proto', 'https');
        expect(response.headers['strict-transport-security']).toBe(HSTS);
        expectSecurityHeaders(response.headers);
      }
    });

    it('follows the first X-Forwarded-Proto entry, the edge proxy’s, like the client IP', async () => {
      const http = await request(trusting.http).get('/v1/spaces').set('X-Forwarded-Proto', 'http, https');
      expect(http.headers['strict-transport-security']).toBeUndefined();
      const https = await request(trusting.http).get('/v1/spaces').set('X-Forwarded-Proto', 'HTTPS, http');
      expect(https.headers['strict-transport-security']).toBe(HSTS);
    });

    it('is not sent for X-Forwarded-Proto when the proxy is not trusted', async () => {
      const response = await request(t.http).get('/v1/spaces').set('X-Forwarded-Proto', 'https');
      expect(response.headers['strict-transport-security']).toBeUndefined();
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
    socket.on('error', reject);
    socket.write(raw);
  });
}
