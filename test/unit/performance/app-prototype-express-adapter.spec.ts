import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Express, Request, Response } from 'express';
import { IncomingMessage, type Server, ServerResponse } from 'node:http';
import request from 'supertest';
import { AppPrototypeExpressAdapter } from '../../../src/infrastructure/performance/app-prototype-express-adapter';

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

/**
 * Requests built on Express's prototypes (docs/decisions/0088-requests-built-on-expresss-prototypes-and-no-pretenuring.md).
 * On a Node whose constructors became classes the adapter quietly builds the stock server and the
 * gain is gone: the checks of this Node's constructors fail instead (docs/decisions/0128-performance-patches.md).
 */
describe('AppPrototypeExpressAdapter', () => {
  it("this Node's IncomingMessage and ServerResponse are plain functions, callable on an existing object", () => {
    for (const constructor of [IncomingMessage, ServerResponse]) {
      expect(Function.prototype.toString.call(constructor)).not.toMatch(/^class\b/);
    }
  });

  it('this Node builds a request and a response from at most two arguments, all the built constructor passes on', () => {
    expect(IncomingMessage.length).toBeLessThanOrEqual(2);
    expect(ServerResponse.length).toBeLessThanOrEqual(2);
  });

  it("this Express answers with prototypes that inherit from Node's, which it sets on every request", () => {
    const { app } = helloAdapter({});
    expect(Object.getPrototypeOf(Object.getPrototypeOf(app.request))).toBe(IncomingMessage.prototype);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(app.response))).toBe(ServerResponse.prototype);
  });

  it("with the options createApp passes, builds on the app's prototypes", async () => {
    const { app, server } = helloAdapter({ bodyParser: false, bufferLogs: true });
    const seen = recordPrototypes(server);
    await request(server).get('/hello?name=d').expect(200, { hello: 'd', isRequest: true });
    expect(seen).toEqual([[app.request, app.response]]);
  });

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

  it("Nest builds its server through the adapter's initHttpServer and serves on it", async () => {
    @Controller()
    class HelloController {
      @Get('hello')
      hello(): { hello: string } {
        return { hello: 'nest' };
      }
    }
    @Module({ controllers: [HelloController] })
    class HelloModule {}
    const nest = await NestFactory.create(HelloModule, new AppPrototypeExpressAdapter(), {
      bodyParser: false,
      bufferLogs: true,
      logger: false,
    });
    try {
      await nest.init();
      const app = nest.getHttpAdapter().getInstance() as Express;
      const server = nest.getHttpServer() as Server;
      const seen = recordPrototypes(server);
      await request(server).get('/hello').expect(200, { hello: 'nest' });
      expect(seen).toEqual([[app.request, app.response]]);
    } finally {
      await nest.close();
    }
  });

  it("builds the stock server when asked for the adapter's connection-closing options", async () => {
    const { server } = helloAdapter({ forceCloseConnections: true });
    const seen = recordPrototypes(server);
    await request(server).get('/hello?name=c').expect(200, { hello: 'c', isRequest: true });
    expect(seen).toEqual([[IncomingMessage.prototype, ServerResponse.prototype]]);
  });
});
