import type { Express, Request, Response } from 'express';
import { once } from 'node:events';
import { Agent, get, type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ShutdownState } from '../../../src/infrastructure/health/shutdown-state';
import { AppPrototypeExpressAdapter } from '../../../src/infrastructure/performance/app-prototype-express-adapter';
import { closeConnectionsWhenDraining } from '../../../src/infrastructure/performance/close-connections-when-draining';

/**
 * `Connection: close` while draining, decided in `writeHead` on the app's response prototype
 * (docs/decisions/0128-performance-patches.md). It relies on every way a response starts (Express's
 * `send`/`json`/`sendStatus`, Node's implicit headers on the first `write` or `end`, an explicit
 * `writeHead`) going through `writeHead` looked up on the response, and on Node closing the socket
 * after a response that carries `Connection: close`. A Node or Express upgrade that writes headers
 * another way fails here.
 */
describe('closeConnectionsWhenDraining', () => {
  let server: Server;
  let origin: string;
  const shutdown = new ShutdownState();

  beforeAll(async () => {
    const adapter = new AppPrototypeExpressAdapter();
    adapter.initHttpServer({});
    const app = adapter.getInstance<Express>();
    closeConnectionsWhenDraining(app.response, shutdown);
    app.get('/json', (_req: Request, res: Response) => void res.json({ ok: true }));
    app.get('/send', (_req: Request, res: Response) => void res.send('ok'));
    app.get('/status', (_req: Request, res: Response) => void res.sendStatus(204));
    app.get('/end', (_req: Request, res: Response) => void res.end());
    app.get('/write', (_req: Request, res: Response) => {
      res.write('a');
      res.end('b');
    });
    app.get('/write-head', (_req: Request, res: Response) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
    server = adapter.getHttpServer() as Server;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  afterEach(() => (shutdown.draining = false));

  /** A GET on a keep-alive agent: the Connection header and whether the server then closed the socket. */
  async function fetched(path: string): Promise<{ connection: string | undefined; socketClosed: boolean }> {
    const agent = new Agent({ keepAlive: true });
    try {
      // A socket the server keeps open goes back to the agent as free; one the server closes does not.
      const freed = once(agent, 'free').then(() => false);
      const response = await new Promise<IncomingMessage>((resolve, reject) =>
        get(`${origin}${path}`, { agent }, resolve).on('error', reject),
      );
      const socket = response.socket as Socket;
      const closed = once(socket, 'close');
      response.resume();
      await once(response, 'end');
      const socketClosed = await Promise.race([closed.then(() => true), freed]);
      return { connection: response.headers.connection, socketClosed };
    } finally {
      agent.destroy();
    }
  }

  const ROUTES = ['/json', '/send', '/status', '/end', '/write', '/write-head'];

  it.each(ROUTES)('GET %s while draining: Connection: close, and Node closes the socket', async (path) => {
    shutdown.draining = true;
    expect(await fetched(path)).toEqual({ connection: 'close', socketClosed: true });
  });

  it.each(ROUTES)('GET %s while serving: the connection is kept', async (path) => {
    expect(await fetched(path)).toEqual({ connection: 'keep-alive', socketClosed: false });
  });

  it("patches the app's response prototype only, not Node's", () => {
    expect(Object.prototype.hasOwnProperty.call(ServerResponse.prototype, 'writeHead')).toBe(true);
    expect(ServerResponse.prototype.writeHead.toString()).not.toContain('draining');
  });
});
