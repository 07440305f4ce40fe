import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { staticSecurityHeaderLines } from './security-headers';

/** What a request Node's HTTP parser refuses gets: design.md §5 has no 408 or 431 row. */
export const MALFORMED_REQUEST_BODY = '{"code":"E_INVALID_REQUEST","message":"Malformed request"}';

/** The security headers of every other answer (never HSTS: this request's transport is unknown). */
const SECURITY_HEADER_LINES = staticSecurityHeaderLines();

/**
 * A request Node's HTTP parser refuses (bad request line, bytes not allowed in a header, headers
 * over the size cap, a parser timeout) never reaches Express, so Node would answer a bare
 * `400 Bad Request` with no body and no Cache-Control. Every error carries the envelope and
 * `no-store` (design.md §5), these too; the connection is then closed, as Node does.
 */
export function answerClientErrorsWithEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable || responseStarted(socket)) {
      socket.destroy();
      return;
    }
    socket.end(malformedRequestResponse());
  });
}

/** A response already on the wire (keep-alive) cannot be followed by one more status line. */
function responseStarted(socket: Socket): boolean {
  return (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
}

function malformedRequestResponse(): string {
  return [
    'HTTP/1.1 400 Bad Request',
    'Content-Type: application/json; charset=utf-8',
    'Cache-Control: no-store',
    `X-Request-Id: ${randomUUID()}`,
    ...SECURITY_HEADER_LINES,
    `Content-Length: ${Buffer.byteLength(MALFORMED_REQUEST_BODY)}`,
    'Connection: close',
    '',
    MALFORMED_REQUEST_BODY,
  ].join('\r\n');
}
