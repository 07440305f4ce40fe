import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { settleWithin } from '../../common/settle-within';
import { ShutdownState } from './shutdown-state';

/**
 * What SIGTERM does (main.ts): readiness turns 503, every response from now on carries
 * `Connection: close` (app.factory.ts) so keep-alive clients move to other replicas, idle sockets
 * close at once, and the server stops accepting; in-flight requests finish (at most
 * `requestPatienceMs`) before the modules shut down. Nest's `app.close()` runs the modules'
 * destroy hooks (the job queue's close among them) before it closes the HTTP server, so a request
 * still running then would queue its after-commit work on a closed queue ("Connection is
 * closed"): the server is closed here first (docs/decisions/0125-no-background-work-lost.md).
 */
export async function drain(app: INestApplication, requestPatienceMs?: number): Promise<void> {
  app.get(ShutdownState).startDraining();
  const server = app.getHttpServer() as Server;
  server.closeIdleConnections();
  const stopped = stopServing(server);
  await (requestPatienceMs === undefined ? stopped : settleWithin(stopped, requestPatienceMs, undefined));
  await app.close();
}

/** Stops accepting and resolves once every connection has ended (at once when not listening). */
function stopServing(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => server.close(() => resolve()));
}
