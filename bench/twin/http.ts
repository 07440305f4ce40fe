import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { staticSecurityHeaderLines } from '../../src/infrastructure/http/security-headers';

/**
 * The headers the app puts on every JSON answer, written by the twin in one `writeHead`, and the
 * app's access-log line. The headers: the
 * static security headers (taken once, at start, from the app's own helmet configuration, so the
 * two never drift), a fresh X-Request-Id, `Cache-Control: no-store`, the JSON content type and the
 * length. No ETag (the app turns Express's off), no X-Powered-By.
 */
const SECURITY_HEADERS: [string, string][] = staticSecurityHeaderLines().map((line) => {
  const colon = line.indexOf(':');
  return [line.slice(0, colon), line.slice(colon + 1).trim()];
});

export function replyJson(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  json: string,
  startedAt: number,
): void {
  const headers: Record<string, string | number> = {};
  for (const [name, value] of SECURITY_HEADERS) headers[name] = value;
  const id = randomUUID();
  headers['X-Request-Id'] = id;
  headers['Cache-Control'] = 'no-store';
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = Buffer.byteLength(json);
  response.writeHead(status, headers);
  response.end(json);
  if (!request.url?.startsWith('/health/')) accessLog(request, id, status, startedAt);
}

/**
 * A stored file streamed as the app streams one (a StreamableFile): the static security headers, a
 * fresh X-Request-Id and the handler's headers in one `writeHead`, then the bytes from disk.
 */
export function replyFile(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  file: { path: string; headers: Record<string, string | number> },
  startedAt: number,
): void {
  const headers: Record<string, string | number> = {};
  for (const [name, value] of SECURITY_HEADERS) headers[name] = value;
  const id = randomUUID();
  headers['X-Request-Id'] = id;
  Object.assign(headers, file.headers);
  response.writeHead(status, headers);
  const bytes = createReadStream(file.path);
  bytes.once('error', (error) => response.destroy(error));
  bytes.pipe(response);
  response.once('finish', () => accessLog(request, id, status, startedAt));
}

const PID = process.pid;
const HOST = hostname();

/**
 * The access-log line the app writes per request at LOG_LEVEL=info (pino-http's "request
 * completed", health routes excepted), one JSON line on stdout with the same members.
 */
function accessLog(request: IncomingMessage, id: string, status: number, startedAt: number): void {
  const now = Date.now();
  process.stdout.write(
    `${JSON.stringify({
      level: 30,
      time: now,
      pid: PID,
      hostname: HOST,
      req: {
        id,
        method: request.method,
        url: request.url,
        remoteAddress: request.socket.remoteAddress,
        userAgent: request.headers['user-agent'],
      },
      res: { statusCode: status },
      responseTime: now - startedAt,
      msg: 'request completed',
    })}\n`,
  );
}
