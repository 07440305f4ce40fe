import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { Clock, Repeating } from '../../../src/common/clock/clock';
import { signRequestProof } from '../../../src/protocol/client';
import { Actor } from '../../support/actors';
import { bootApp, BootOptions, TestApp } from '../../support/app';
import { ShiftedClock } from '../../support/clock';
import { eventually } from '../../support/eventually';
import { DataSource } from 'typeorm';

/** Real time shifted as the test says, whose repeating timers tick only when the test says. */
export class TickingClock extends ShiftedClock {
  private readonly timers = new Set<{ intervalMs: number; tick: () => void }>();

  override repeat(intervalMs: number, tick: () => void): Repeating {
    const timer = { intervalMs, tick };
    this.timers.add(timer);
    return { stop: () => this.timers.delete(timer) };
  }

  /** Runs every timer of this interval once, as if `intervalMs` had passed. */
  fire(intervalMs: number): number {
    let fired = 0;
    for (const timer of this.timers) {
      if (timer.intervalMs !== intervalMs) continue;
      timer.tick();
      fired++;
    }
    return fired;
  }
}

export interface StreamApp extends TestApp {
  clock: TickingClock;
  port: number;
  dataSource: DataSource;
  person(): Promise<Actor>;
}

/** Boots the AppModule listening on a port (streams need a real socket), with a ticking clock. */
export async function bootStreamApp(options: Omit<BootOptions, 'override'> = {}): Promise<StreamApp> {
  const clock = new TickingClock();
  const t = await bootApp({
    ...options,
    override: (builder) => builder.overrideProvider(Clock).useValue(clock),
  });
  await t.app.listen(0, '127.0.0.1');
  const port = ((t.app.getHttpServer() as Server).address() as { port: number }).port;
  return {
    ...t,
    clock,
    port,
    dataSource: t.app.get(DataSource),
    person: () => Actor.create(t, { clock: () => clock.now() }),
  };
}

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * A Server-Sent Events client on plain node:http, reading the stream as it arrives (no buffering
 * of the whole answer, as supertest would). Parses events, comments and `retry:` per the HTML
 * specification's event-stream format.
 */
export class StreamClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  retry: number | null = null;
  body = '';
  ended = false;
  private buffer = '';

  private constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    private readonly request: ClientRequest,
  ) {}

  static open(
    app: { port: number; config: TestApp['config'] },
    actor: Actor | null,
    options: { credential?: string; lastEventId?: string; headers?: Record<string, string> } = {},
  ): Promise<StreamClient> {
    const path = '/v1/stream';
    const headers: Record<string, string> = { Host: 'api.plat.test', ...options.headers };
    if (actor) Object.assign(headers, actor.headers('GET', path, { credential: options.credential }));
    if (options.lastEventId !== undefined) headers['Last-Event-ID'] = options.lastEventId;
    return new Promise((resolve, reject) => {
      const call = httpRequest({ host: '127.0.0.1', port: app.port, path, headers }, (response) => {
        const client = new StreamClient(response.statusCode!, response.headers, call);
        response.setEncoding('utf8');
        let resolved = false;
        response.on('data', (chunk: string) => {
          client.receive(chunk);
          // A stream is ready once its first comment arrived (the subscription is live then).
          if (!resolved && (client.status !== 200 || client.comments.length > 0)) {
            resolved = true;
            resolve(client);
          }
        });
        response.on('end', () => {
          client.ended = true;
          if (!resolved) resolve(client);
        });
        response.on('close', () => {
          client.ended = true;
          if (!resolved) resolve(client);
        });
      });
      call.on('error', reject);
      call.end();
    });
  }

  /** The events of one type, data parsed. */
  data<T = Record<string, unknown>>(type = 'notification'): T[] {
    return this.events.filter((event) => event.event === type).map((event) => JSON.parse(event.data) as T);
  }

  /** Waits until `count` events of `type` arrived (20 s at most) and answers them. */
  async waitFor(count: number, type = 'notification', timeoutMs = 20_000): Promise<SseEvent[]> {
    const events = await eventually(
      () => this.events.filter((event) => event.event === type),
      (found) => found.length >= count,
      timeoutMs,
    );
    if (events.length < count) throw new Error(`${events.length} ${type} events, not ${count}`);
    return events;
  }

  async waitForEnd(timeoutMs = 20_000): Promise<boolean> {
    return eventually(
      () => this.ended,
      (ended) => ended,
      timeoutMs,
    );
  }

  close(): void {
    this.request.destroy();
  }

  private receive(chunk: string): void {
    if (this.status !== 200) {
      this.body += chunk;
      return;
    }
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      this.parse(block);
    }
  }

  private parse(block: string): void {
    let event: Partial<SseEvent> & { data?: string } = {};
    let hasField = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) {
        this.comments.push(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'retry') this.retry = Number(value);
      else if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'data') event.data = event.data === undefined ? value : `${event.data}\n${value}`;
      else continue;
      hasField = true;
    }
    if (hasField && event.data !== undefined) {
      this.events.push({ id: event.id, event: event.event ?? 'message', data: event.data });
    }
    event = {};
  }
}

/** A bare proof signed by one held key (the others stay with the identity). */
export function proofBy(
  app: { config: TestApp['config'] },
  identity: Actor['identity'],
  key: Actor['identity']['authKey'],
  clock: () => Date,
): Record<string, string> {
  return {
    Authorization: signRequestProof({
      identity: { did: identity.did, authKey: key },
      audience: app.config.publicHost,
      method: 'GET',
      target: '/v1/stream',
      clock,
    }).authorization,
  };
}
