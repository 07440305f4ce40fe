import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Route = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/** A local web server for link previews' tests: routes by path, counts the requests of each path. */
export class LocalWeb {
  readonly hits = new Map<string, number>();
  readonly routes = new Map<string, Route>();
  private readonly sockets = new Set<Socket>();
  private readonly server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://local').pathname;
    this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
    const route = this.routes.get(path);
    if (route) return route(request, response);
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  port = 0;

  async start(): Promise<number> {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A route answering an HTML page. */
export const html =
  (body: string, contentType = 'text/html; charset=utf-8'): Route =>
  (_request, response) =>
    response.writeHead(200, { 'content-type': contentType }).end(body);
