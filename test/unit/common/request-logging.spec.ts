import { createServer, request as httpRequest, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { runInRequestScope } from '../../../src/infrastructure/http/request-scope';
import { AccessLog } from '../../../src/infrastructure/logging/access-log';
import { redactUrl } from '../../../src/infrastructure/logging/log-redaction';
import { loggerOptions, requestIdFor } from '../../../src/infrastructure/logging/logging.module';

interface LogLine {
  level: number;
  msg: string;
  req?: { id?: string; method?: string; url?: string; headers?: unknown };
  res?: { statusCode?: number };
}

/** The service's logger, access log and request scope on a bare server, with the log lines captured. */
describe('request logging (0025-operations-access-logs-shutdown-ci-and-setting-errors)', () => {
  let server: Server;
  let port: number;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    });
    const logger = pino(loggerOptions({ LOG_LEVEL: 'info' }), sink);
    const accessLog = new AccessLog(logger);
    server = createServer((request, response) => {
      requestIdFor(request, response);
      accessLog.start(request, response);
      runInRequestScope(request, () => {
        // A line logged later in the request, past an await, still names it.
        void Promise.resolve().then(() => {
          logger.info('handler ran');
          response.statusCode = request.url === '/fail' ? 500 : 200;
          response.end('{}');
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (path: string, headers: Record<string, string>) =>
    new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.headers));
      })
        .on('error', reject)
        .end();
    });

  const linesOf = async (id: string) => {
    // The completion line is written when the response finishes; wait until both are in.
    for (let i = 0; i < 100 && lines.filter((line) => line.req?.id === id).length < 2; i++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return lines.filter((line) => line.req?.id === id);
  };

  it('writes JSON lines carrying the echoed request id, and never a credential header', async () => {
    const secrets = { authorization: 'PLAT secret.proof.value', 'x-credential': 'secret-credential' };
    const headers = await get('/v1/profile?x=1', {
      ...secrets,
      cookie: 'sid=secret',
      'x-request-id': 'log-1',
      'user-agent': 'probe/1',
    });
    expect(headers['x-request-id']).toBe('log-1');

    const ofRequest = await linesOf('log-1');
    expect(ofRequest.map((line) => line.msg)).toEqual(['handler ran', 'request completed']);
    const completed = ofRequest[1] as Required<LogLine>;
    expect(completed.level).toBe(30);
    expect(completed.req).toEqual({
      id: 'log-1',
      method: 'GET',
      url: '/v1/profile?x=1',
      remoteAddress: '127.0.0.1',
      userAgent: 'probe/1',
    });
    expect(completed.res).toEqual({ statusCode: 200 });
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('names a request by its traceparent and logs the trace on every line (0064-observability-metrics-traceparent-and-hpa)', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const headers = await get('/v1/spaces', {
      traceparent: `00-${traceId}-b7ad6b7169203331-01`,
      'x-request-id': 'not-this-one',
    });
    expect(headers['x-request-id']).toBe(traceId);
    const ofRequest = await linesOf(traceId);
    expect(ofRequest).toHaveLength(2);
    for (const line of ofRequest) {
      expect(line.req).toMatchObject({ id: traceId, traceId, parentSpanId: 'b7ad6b7169203331' });
    }
  });

  it('ignores an invalid traceparent: the usual id, no trace fields', async () => {
    await get('/v1/spaces', {
      traceparent: `00-${'0'.repeat(32)}-b7ad6b7169203331-01`,
      'x-request-id': 'trace-fallback',
    });
    const ofRequest = await linesOf('trace-fallback');
    expect(ofRequest).toHaveLength(2);
    for (const line of ofRequest) expect(Object.keys(line.req!)).not.toContain('traceId');
  });

  it('logs a 5xx at error level', async () => {
    await get('/fail', { 'x-request-id': 'log-2' });
    const [, completed] = await linesOf('log-2');
    expect(completed.level).toBe(50);
  });

  it('leaves the health probes out of the access log', async () => {
    await get('/health/live', { 'x-request-id': 'log-3' });
    expect((await linesOf('log-3')).map((line) => line.msg)).toEqual(['handler ran']);
  });

  it('never logs a key-proof or invite code (0021-no-bearer-codes-in-logs)', async () => {
    await get('/v1/key-proof/status?code=SECRETCODE1&x=1', { 'x-request-id': 'codes-1' });
    const [line] = await linesOf('codes-1');
    expect(line.req?.url).toBe('/v1/key-proof/status?code=[redacted]&x=1');
    expect(JSON.stringify(lines)).not.toContain('SECRETCODE1');
    expect(redactUrl('/.well-known/plat-key-proof?code=abc')).toBe(
      '/.well-known/plat-key-proof?code=[redacted]',
    );
    expect(redactUrl('/key-proofs/abc/adopt')).toBe('/key-proofs/[redacted]/adopt');
    expect(redactUrl('/spaces/invites/abc')).toBe('/spaces/invites/[redacted]');
    expect(redactUrl('/spaces/join/abc?x=1')).toBe('/spaces/join/[redacted]?x=1');
    expect(redactUrl('/spaces/s1/my-invite')).toBe('/spaces/s1/my-invite');
  });
});
