import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Level, Logger } from 'pino';

const STARTED = Symbol('accessLogStartedAt');
type Timed = ServerResponse & { [STARTED]?: number };

/** Probes are asked every few seconds by every kubelet; their lines would drown the rest. */
const unlogged = (request: IncomingMessage) => request.url?.startsWith('/health/') ?? false;

const levelOf = (status: number): Level => (status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info');

/**
 * One line per answered request (`request completed`, or `request errored` for a 5xx) with the
 * request's summary, its status and the milliseconds it took. Nothing is built per request beyond
 * a start time and one shared listener; the line itself only when its level is enabled.
 */
export class AccessLog {
  private readonly onDone: (this: Timed) => void;

  constructor(logger: Logger) {
    this.onDone = function (this: Timed) {
      const started = this[STARTED];
      // 'close' follows 'finish'; it comes alone when the client went away before the answer.
      if (started === undefined) return;
      this[STARTED] = undefined;
      const level = levelOf(this.statusCode);
      if (!logger.isLevelEnabled(level)) return;
      const fields = { req: this.req, res: this, responseTime: Date.now() - started };
      logger[level](fields, this.statusCode >= 500 ? 'request errored' : 'request completed');
    };
  }

  /** Starts the clock of `request`; its line is written once the response is done or abandoned. */
  start(request: IncomingMessage, response: ServerResponse): void {
    if (unlogged(request)) return;
    (response as Timed)[STARTED] = Date.now();
    // On 'finish' the socket still tells the client's address.
    response.once('finish', this.onDone);
    response.once('close', this.onDone);
  }
}
