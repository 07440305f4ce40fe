import type { Server } from 'node:http';
import { AppConfig } from '../../config/app-config';

/**
 * Timeouts that keep slow or stalled clients from holding sockets and buffers: the whole request
 * (headers and body) must arrive within REQUEST_TIMEOUT_MS, its headers within HEADERS_TIMEOUT_MS,
 * and an idle keep-alive socket closes after KEEP_ALIVE_TIMEOUT_MS. Node checks the first two on an
 * interval (30 s by default; a creation option in the types, yet read when the server starts
 * listening), so the interval is tightened too. Set before `listen`.
 */
export function applyServerTimeouts(
  server: Server & { connectionsCheckingInterval?: number },
  config: AppConfig,
): void {
  server.requestTimeout = config.REQUEST_TIMEOUT_MS;
  server.headersTimeout = Math.min(config.HEADERS_TIMEOUT_MS, config.REQUEST_TIMEOUT_MS);
  server.keepAliveTimeout = config.KEEP_ALIVE_TIMEOUT_MS;
  server.connectionsCheckingInterval = Math.min(1000, config.REQUEST_TIMEOUT_MS);
}
