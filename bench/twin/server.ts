import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Pool } from 'pg';
import { TWIN_HEADER } from '../scenario-kit';
import { ProofRefused } from './auth';
import { TwinRefusal, type TwinContext } from './context';
import { TwinCursors } from './cursors';
import { twinHandlers } from './handlers';
import { replyFile, replyJson } from './http';

/**
 * The bare twin: node:http and a pg.Pool answering each scenario with the statements the app runs
 * and the bytes the app answers (bench/twin/*). Requests are routed by the handler named in the
 * x-bench-twin header (the harness sends it on every request to both sides); handlers read the
 * path, query and body themselves. Run as a child of the harness; it reports its port over IPC.
 *
 * Env: DATABASE_URL (required), CURSOR_SECRET (the app's, so cursors open on both sides),
 * SPACES_WEB_DOMAIN (default plat.community, as the app's), MEDIA_DIR (the app's media store),
 * BENCH_TWIN_POOL_SIZE (default: the
 * app's DATABASE_POOL_SIZE, 10 unless set, so both sides can have as many statements in flight).
 */

export type TwinMessage = { type: 'listening'; port: number } | { type: 'error'; message: string };

async function main(): Promise<void> {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error('DATABASE_URL is required');
  const secret = process.env.CURSOR_SECRET;
  if (!secret) throw new Error('CURSOR_SECRET is required');
  const pool = new Pool({
    connectionString,
    max: Number(process.env.BENCH_TWIN_POOL_SIZE ?? process.env.DATABASE_POOL_SIZE ?? 10),
  });
  await pool.query('SELECT 1');
  const cursors = new TwinCursors(secret);
  const webDomain = process.env.SPACES_WEB_DOMAIN ?? 'plat.community';
  const mediaDir = resolve(process.env.MEDIA_DIR ?? '.data/media');

  const server = createServer((request, response) => {
    void handle({ pool, cursors, webDomain, mediaDir }, request, response);
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => {
    send({ type: 'listening', port: (server.address() as AddressInfo).port });
  });

  const shutdown = () => {
    server.close();
    server.closeAllConnections();
    void pool.end().finally(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  process.once('disconnect', shutdown);
}

async function handle(
  settings: Pick<TwinContext, 'pool' | 'cursors' | 'webDomain' | 'mediaDir'>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const startedAt = Date.now();
  try {
    const name = request.headers[TWIN_HEADER];
    const handler = typeof name === 'string' ? twinHandlers[name] : undefined;
    if (!handler)
      return replyJson(
        request,
        response,
        404,
        JSON.stringify({ error: `no twin handler ${String(name)}` }),
        startedAt,
      );
    let body = Buffer.alloc(0);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      body = Buffer.concat(chunks);
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const result = await handler({ ...settings, request, url, body });
    if ('file' in result) replyFile(request, response, result.status, result.file, startedAt);
    else replyJson(request, response, result.status, result.json, startedAt);
  } catch (error) {
    const status = error instanceof TwinRefusal ? error.status : error instanceof ProofRefused ? 401 : 500;
    // A twin that fails says why in its log (the answer's body is compared, never shown).
    if (status >= 500) console.error(`twin ${String(request.headers[TWIN_HEADER])}: ${String(error)}`);
    replyJson(
      request,
      response,
      status,
      JSON.stringify({ twinError: error instanceof Error ? error.message : String(error) }),
      startedAt,
    );
  }
}

function send(message: TwinMessage, then?: () => void): void {
  if (process.send) process.send(message, undefined, {}, () => then?.());
  else {
    console.log(JSON.stringify(message));
    then?.();
  }
}

main().catch((error: unknown) => {
  send({ type: 'error', message: error instanceof Error ? error.message : String(error) }, () =>
    process.exit(1),
  );
});
