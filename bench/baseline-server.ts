import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { SCENARIO_HEADER } from './scenario-kit';
import { scenarios, type BaselineHandler } from './scenarios';

/**
 * The bare baseline: node:http and a pg.Pool answering each scenario with the same essential work.
 * Requests are routed by the scenario name in the x-bench-scenario header (the harness sends it on
 * every request), so a scenario's baseline path may differ from the service's (e.g. a cursor of its
 * own) and handlers read the path and query themselves. Run as a child of bench/run.ts (forked, so it gets its own event loop instead of
 * sharing one with the load generator); it reports its port over IPC once listening.
 *
 * Env: DATABASE_URL (required), BENCH_BASELINE_POOL_SIZE (default 10, node-postgres' and TypeORM's
 * default pool size, so both sides can have as many queries in flight).
 */

export type BaselineMessage = { type: 'listening'; port: number } | { type: 'error'; message: string };

async function main(): Promise<void> {
  const connectionString = process.env.DATABASE_URL;
  if (!connectionString) throw new Error('DATABASE_URL is required');
  const pool = new Pool({ connectionString, max: Number(process.env.BENCH_BASELINE_POOL_SIZE ?? 10) });
  await pool.query('SELECT 1');

  const routes = new Map<string, BaselineHandler>();
  for (const scenario of scenarios) {
    if (typeof scenario.baseline === 'function') routes.set(scenario.name, scenario.baseline);
  }

  const server = createServer((request, response) => {
    void handle(routes, pool, request, response);
  });
  server.keepAliveTimeout = 65_000;
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
  routes: Map<string, BaselineHandler>,
  pool: Pool,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  try {
    const name = request.headers[SCENARIO_HEADER];
    const handler = typeof name === 'string' ? routes.get(name) : undefined;
    if (!handler) return reply(response, 404, { error: `no baseline for scenario ${String(name)}` });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const result = await handler({ pool, request, url, body: Buffer.concat(chunks) });
    reply(response, result.status ?? 200, result.body);
  } catch (error) {
    reply(response, 500, { error: error instanceof Error ? error.message : String(error) });
  }
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  });
  response.end(payload);
}

function send(message: BaselineMessage, then?: () => void): void {
  if (process.send) {
    process.send(message, undefined, {}, () => then?.());
  } else {
    console.log(JSON.stringify(message));
    then?.();
  }
}

main().catch((error: unknown) => {
  send({ type: 'error', message: error instanceof Error ? error.message : String(error) }, () =>
    process.exit(1),
  );
});
