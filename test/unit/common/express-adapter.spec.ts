import type { Express, Request, Response } from 'express';
import { IncomingMessage, type Server, ServerResponse } from 'node:http';
import request from 'supertest';
import { AppPrototypeExpressAdapter } from '../../../src/infrastructure/http/express-adapter';

/** What each request and response had as prototype when Node built it, before Express saw it. */
function recordPrototypes(server: Server): Array<[object | null, object | null]> {
  const seen: Array<[object | null, object | null]> = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) =>
    seen.push([Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object]),
  );
  return seen;
}

function helloAdapter(options: Parameters<AppPrototypeExpressAdapter['initHttpServer']>[0]) {
  const adapter = new AppPrototypeExpressAdapter();
  adapter.initHttpServer(options);
  const app = adapter.getInstance<Express>();
  app.get('/hello', (req: Request, res: Response) =>
    res.json({ hello: req.query.name, isRequest: req instanceof IncomingMessage }),
  );
  return { app, server: adapter.getHttpServer() as Server };
}

/** Requests built on Express's prototypes (docs/decisions/0088-requests-built-on-expresss-prototypes-and-no-pretenuring.md). */
describe('AppPrototypeExpressAdapter', () => {
  it("builds every request and response on the Express app's prototypes, so Express changes none", async () => {
    const { app, server } = helloAdapter({});
    const seen = recordPrototypes(server);
    const agent = request.agent(server);
    await agent.get('/hello?name=a').expect(200, { hello: 'a', isRequest: true });
    await agent.get('/hello?name=b').expect(200, { hello: 'b', isRequest: true });
    expect(seen).toEqual([
      [app.request, app.response],
      [app.request, app.response],
    ]);
    // Still Node's objects: the stream and message behaviour comes from Node's own prototypes.
    expect(Object.getPrototypeOf(Object.getPrototypeOf(app.request))).toBe(IncomingMessage.prototype);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(app.response))).toBe(ServerResponse.prototype);
  });

  it("builds the stock server when asked for the adapter's connection-closing options", async () => {
    const { server } = helloAdapter({ forceCloseConnections: true });
    const seen = recordPrototypes(server);
    await request(server).get('/hello?name=c').expect(200, { hello: 'c', isRequest: true });
    expect(seen).toEqual([[IncomingMessage.prototype, ServerResponse.prototype]]);
  });
});
