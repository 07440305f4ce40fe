import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

/**
 * Express's adapter, with requests and responses built on the app's prototypes from the start.
 *
 * Express moves every request and response onto its app's prototypes (`Object.setPrototypeOf(req,
 * app.request)` in `app.handle`). Changing the prototype of an object V8 has already built makes
 * each request's objects outlive young-generation collections, so they are promoted and make every
 * scavenge long (docs/decisions/0088-requests-built-on-expresss-prototypes-and-no-pretenuring.md,
 * figures in bench/JOURNAL.md). Node builds the objects from the
 * constructors the server is given, so they are built with those prototypes and Express's own call
 * sets the prototype they already have (a no-op).
 *
 * HTTPS and the adapter's connection-closing options are not used by the service; with any of them,
 * or on a Node whose constructors are classes (they cannot be called on an existing object), the
 * stock server is built. What to check on a Node or Express upgrade: docs/decisions/0128-performance-patches.md.
 */
export class AppPrototypeExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    const stock = options?.httpsOptions || options?.forceCloseConnections || options?.return503OnClosing;
    if (stock || !callable(IncomingMessage) || !callable(ServerResponse)) {
      super.initHttpServer(options);
      return;
    }
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      {
        IncomingMessage: builtOn(IncomingMessage, app.request),
        ServerResponse: builtOn(ServerResponse, app.response),
      },
      app,
    );
  }
}

/**
 * A constructor building what `base` builds (Node calls it with at most two arguments), with
 * `prototype` as the new object's prototype. `base.call` on the new object, not
 * `Reflect.construct(base, args, Built)`: V8 builds the latter's objects slower than the stock ones.
 */
function builtOn<T extends object>(base: T, prototype: object): T {
  function Built(this: object, first: unknown, second: unknown): void {
    (base as unknown as (this: object, first: unknown, second: unknown) => void).call(this, first, second);
  }
  Built.prototype = prototype;
  return Built as unknown as T;
}

/** Whether `constructor` is a plain function (callable on an existing object), not a class. */
function callable(constructor: object): boolean {
  return !Function.prototype.toString.call(constructor).startsWith('class');
}
