import { createServer, Server, Socket } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listens on (an unreachable Redis, say). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Accepts connections and never answers: a Redis (or any server) that hangs. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface Pair {
  client: Socket;
  upstream: Socket;
  /** One side closed while blackholed: the other learns of it only once the relay is restored. */
  lost: boolean;
}

/**
 * A TCP relay on 127.0.0.1 in front of `target`, for fault injection between the service and
 * PostgreSQL or Redis. `blackhole()` is a partition: sockets stay open (new ones are accepted too)
 * and every byte is dropped both ways; `cut()` resets every connection and refuses new ones;
 * `restore()` forwards again.
 */
export class TcpRelay {
  private mode: 'forward' | 'blackhole' | 'cut' = 'forward';
  private readonly pairs = new Set<Pair>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  static async start(target: { host: string; port: number }): Promise<TcpRelay> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new TcpRelay(server, (server.address() as { port: number }).port, target);
  }

  /** `url` (e.g. a postgres:// URL) with its host and port replaced by the relay's. */
  route(url: string): string {
    const routed = new URL(url);
    routed.hostname = '127.0.0.1';
    routed.port = String(this.port);
    return routed.toString();
  }

  blackhole(): void {
    this.mode = 'blackhole';
  }

  async cut(): Promise<void> {
    this.mode = 'cut';
    for (const pair of this.pairs) this.drop(pair);
    // Closed, not merely rejecting: a new connection is refused (ECONNREFUSED), as by a dead host.
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (this.mode === 'cut') {
      await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    }
    this.mode = 'forward';
    for (const pair of this.pairs) if (pair.lost) this.drop(pair);
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) this.drop(pair);
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket): void {
    if (this.mode === 'cut') return void client.destroy();
    const upstream = new Socket();
    const pair: Pair = { client, upstream, lost: false };
    this.pairs.add(pair);
    const forward = (to: Socket) => (chunk: Buffer) => {
      if (this.mode === 'forward') to.write(chunk);
    };
    client.on('data', forward(upstream));
    upstream.on('data', forward(client));
    for (const socket of [client, upstream]) {
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (this.mode === 'blackhole') pair.lost = true;
        else this.drop(pair);
      });
    }
    upstream.connect(this.target.port, this.target.host);
  }

  private drop(pair: Pair): void {
    this.pairs.delete(pair);
    // A reset (ECONNRESET at the client), as a crashed peer or a middlebox gives.
    if (!pair.client.destroyed) pair.client.resetAndDestroy();
    pair.upstream.destroy();
  }
}
