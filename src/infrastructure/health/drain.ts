import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { ShutdownState } from './shutdown-state';

/**
 * What SIGTERM does (main.ts): readiness turns 503, every response from now on carries
 * `Connection: close` (app.factory.ts) so keep-alive clients move to other replicas, idle sockets
 * close at once, and the server stops accepting; in-flight requests finish before this resolves.
 */
export async function drain(app: INestApplication): Promise<void> {
  app.get(ShutdownState).startDraining();
  (app.getHttpServer() as Server).closeIdleConnections();
  await app.close();
}
