import { Agent, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { drain } from '../../../src/infrastructure/health/drain';
import { PlatIdentity } from '../../../src/protocol/client';
import { bootApp, TestApp } from '../../support/app';

/**
 * Stalled bodies are dropped in seconds; SIGTERM resets no request
 * (docs/decisions/0018-slow-clients-and-draining-on-sigterm.md).
 */
describe('slow clients and draining (e2e)', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    // A keep-alive timeout far beyond any answer's time: a drain that waited for it would show.
    t = await bootApp({
      env: { REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000', KEEP_ALIVE_TIMEOUT_MS: '60000' },
    });
    await t.app.listen(0, '127.0.0.1');
    port = ((t.app.getHttpServer() as Server).address() as { port: number }).port;
  });

  afterAll(() => t.close());

  it('drops a request whose body stalls, within seconds, with the 400 envelope', async () => {
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(
          'POST /relay/proof/v1/operations HTTP/1.1\r\nHost: api.plat.test\r\n' +
            'Content-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{"operations":[',
        );
      });
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(5000);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.endsWith('{"code":"E_INVALID_REQUEST","message":"Malformed request"}')).toBe(true);
  });

  it('on drain, answers keep-alive requests with Connection: close, resets none, then accepts no more', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const call = httpRequest({ host: '127.0.0.1', port, path, agent }, (response) => {
          response.resume();
          response.on('end', () =>
            resolve({ status: response.statusCode!, connection: response.headers.connection }),
          );
        });
        call.on('error', reject);
        call.end();
      });
    const post = (path: string, body: object) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const call = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path,
            agent,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
          },
          (response) => {
            response.resume();
            response.on('end', () =>
              resolve({ status: response.statusCode!, connection: response.headers.connection }),
            );
          },
        );
        call.on('error', reject);
        call.end(JSON.stringify(body));
      });
    expect(await get('/health/live')).toEqual({ status: 200, connection: 'keep-alive' });
    // A request in flight on the kept-alive socket when the drain starts (a batch of geneses).
    const server = t.app.getHttpServer() as Server;
    const arrived = new Promise((resolve) => server.once('request', resolve));
    const operations = Array.from({ length: 100 }, () => PlatIdentity.create().log[0]);
    const inFlight = post('/relay/proof/v1/operations', { operations });
    await arrived;
    const draining = drain(t.app);
    expect(await inFlight).toEqual({ status: 200, connection: 'close' });
    const answered = Date.now();
    await draining;
    // Not held open for the keep-alive timeout (60 s) after the last answer.
    expect(Date.now() - answered).toBeLessThan(15_000);
    await expect(get('/health/live')).rejects.toThrow(/ECONNREFUSED/);
    agent.destroy();
  });
});
