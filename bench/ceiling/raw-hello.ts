import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The framework ceiling's bare side: node:http answering `{"hello":"world"}` to every request, as
 * fast as Node itself goes on this machine. Reports its port over IPC like the twin.
 */
const BODY = JSON.stringify({ hello: 'world' });

const server = createServer((_request, response) => {
  response.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(BODY),
  });
  response.end(BODY);
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port });
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('disconnect', stop);
