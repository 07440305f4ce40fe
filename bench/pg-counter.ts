import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A counting TCP proxy in front of PostgreSQL: every process under count connects to its own proxy
 * (DATABASE_URL names the proxy's port) and the proxy forwards the bytes both ways untouched while
 * reading the client's side of the wire protocol. A statement is one `Execute` message (extended
 * protocol: what node-postgres sends for every parameterized query, prepared or not) or one simple
 * `Query` message (parameterless queries, TypeORM's START TRANSACTION / COMMIT / ROLLBACK). So
 * BEGIN and COMMIT count, as the round trips they are.
 *
 * Why a proxy and not pg_stat_statements: the extension must be preloaded by the server (it is not
 * on the machines this runs on, nor in the embedded cluster), and its counts are per database, not
 * per process; the proxy works against any server and tells the app's statements from the twin's.
 * It is only used by the counting/verify phase, never while load is measured (its hop would cost
 * both sides).
 *
 * With `capture`, the statements' text and (text-format) parameters are kept, for EXPLAIN and for
 * showing what a request ran.
 */

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

export interface CapturedStatement {
  sql: string;
  /** Parameters as sent (text format); null for SQL NULL or a binary parameter. */
  params: (string | null)[];
}

export interface StatementCounter {
  /** Port on 127.0.0.1 to give the counted process instead of the server's. */
  port: number;
  /** Statements executed through this proxy since it started. */
  count(): number;
  /** Statements captured since the last `takeCaptured()` (only with `capture`). */
  takeCaptured(): CapturedStatement[];
  close(): Promise<void>;
}

/** A proxy on a free loopback port forwarding to `target` (host and port of the PostgreSQL server). */
export async function startStatementCounter(
  target: { host: string; port: number },
  options: { capture?: boolean } = {},
): Promise<StatementCounter> {
  let executed = 0;
  let captured: CapturedStatement[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const reader = new FrontendReader({
      onStatement: (statement) => {
        executed += 1;
        if (options.capture && statement) captured.push(statement);
      },
      capture: options.capture ?? false,
    });
    client.on('data', (chunk: Buffer) => {
      reader.push(chunk);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    count: () => executed,
    takeCaptured: () => {
      const taken = captured;
      captured = [];
      return taken;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Reads the frontend (client → server) message stream: startup-phase messages carry no type byte;
 * after the StartupMessage every message is a type byte and an Int32 length (which counts itself).
 */
class FrontendReader {
  private buffer: Buffer = Buffer.alloc(0);
  private started = false;
  /** Statement text by prepared statement name ('' is the unnamed one). */
  private readonly statements = new Map<string, string>();
  /** Bound portals: their statement's text and parameters. */
  private readonly portals = new Map<string, CapturedStatement>();

  constructor(
    private readonly sink: {
      onStatement: (statement: CapturedStatement | null) => void;
      capture: boolean;
    },
  ) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (!this.started) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) return;
        const code = this.buffer.readInt32BE(4);
        this.buffer = this.buffer.subarray(length);
        // SSL/GSS requests and cancels come before (or instead of) the StartupMessage.
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST && code !== CANCEL_REQUEST) this.started = true;
        continue;
      }
      if (this.buffer.length < 5) return;
      const length = this.buffer.readInt32BE(1);
      if (this.buffer.length < 1 + length) return;
      const type = String.fromCharCode(this.buffer[0]);
      const body = this.buffer.subarray(5, 1 + length);
      this.buffer = this.buffer.subarray(1 + length);
      this.message(type, body);
    }
  }

  private message(type: string, body: Buffer): void {
    switch (type) {
      case 'Q':
        this.sink.onStatement(this.sink.capture ? { sql: cString(body, 0).value, params: [] } : null);
        return;
      case 'E':
        this.sink.onStatement(this.sink.capture ? (this.portals.get(cString(body, 0).value) ?? null) : null);
        return;
      case 'P':
        if (this.sink.capture) {
          const name = cString(body, 0);
          this.statements.set(name.value, cString(body, name.next).value);
        }
        return;
      case 'B':
        if (this.sink.capture) this.bind(body);
        return;
      default:
        return;
    }
  }

  private bind(body: Buffer): void {
    const portal = cString(body, 0);
    const statement = cString(body, portal.next);
    let offset = statement.next;
    const formatCount = body.readInt16BE(offset);
    offset += 2;
    const formats: number[] = [];
    for (let i = 0; i < formatCount; i++, offset += 2) formats.push(body.readInt16BE(offset));
    const paramCount = body.readInt16BE(offset);
    offset += 2;
    const params: (string | null)[] = [];
    for (let i = 0; i < paramCount; i++) {
      const length = body.readInt32BE(offset);
      offset += 4;
      const format = formats.length === 1 ? formats[0] : (formats[i] ?? 0);
      if (length < 0) params.push(null);
      else {
        params.push(format === 0 ? body.toString('utf8', offset, offset + length) : null);
        offset += length;
      }
    }
    this.portals.set(portal.value, { sql: this.statements.get(statement.value) ?? '', params });
  }
}

function cString(buffer: Buffer, start: number): { value: string; next: number } {
  const end = buffer.indexOf(0, start);
  const stop = end < 0 ? buffer.length : end;
  return { value: buffer.toString('utf8', start, stop), next: stop + 1 };
}
