import type { ServerResponse } from 'node:http';
import type { ShutdownState } from '../health/shutdown-state';

/**
 * Once the replica drains, every response of the app whose headers are not written yet carries
 * `Connection: close`, those in flight when the drain starts included. Decided as the headers are
 * written, on the app's response prototype (every response is built on it: AppPrototypeExpressAdapter,
 * and Node writes implicit headers through `writeHead` too), rather than by keeping each unanswered
 * response in a set: a long-lived set holding every response that waits on I/O kept those responses
 * alive through young-generation collections, and that showed in the CPU of every request
 * (docs/decisions/0090-no-long-lived-set-of-in-flight-responses.md; upgrade checks:
 * docs/decisions/0128-performance-patches.md).
 */
export function closeConnectionsWhenDraining(
  responsePrototype: ServerResponse,
  shutdown: ShutdownState,
): void {
  const writeHead = responsePrototype.writeHead;
  responsePrototype.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (shutdown.draining && !this.headersSent) this.setHeader('Connection', 'close');
    return (writeHead as (...args: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}
