import { Agent, request as httpRequest } from 'node:http';
import type { Readable } from 'node:stream';
import { PlatIdentity, signRequestProof } from '../src/protocol/client';
import type { Target } from './processes';
import { BENCH_PUBLIC_HOST } from './service-env';

/** Keep-alive connections to the bench's own service processes (not measured calls). */
const agent = new Agent({ keepAlive: true, maxSockets: 8 });

/**
 * One JSON call to a service process of the standalone benches (bench/stream.ts,
 * bench/webhook-deliveries.ts), with a fresh request proof by `signer` when given; a status of 300
 * or more rejects with the answer.
 */
export async function call(
  target: Target,
  method: string,
  path: string,
  signer: PlatIdentity | null,
  body: unknown,
): Promise<unknown> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (signer) {
    headers.Authorization = signRequestProof({
      identity: signer,
      audience: BENCH_PUBLIC_HOST,
      method,
      target: path,
      jti: true,
    }).authorization;
  }
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: target.port, path, method, headers, agent },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('end', () => {
          if ((response.statusCode ?? 500) >= 300) {
            reject(new Error(`${method} ${path}: ${response.statusCode} ${answer}`));
          } else {
            resolve(answer ? JSON.parse(answer) : null);
          }
        });
      },
    );
    request.on('error', reject);
    request.end(text);
  });
}

/** The `q` quantile of `samples` (nearest rank), one decimal. */
export function pct(samples: number[], q: number): string {
  const sorted = [...samples].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)].toFixed(1);
}

/**
 * Streams `body` to `method path` on a service process (an upload, an archive: never held whole);
 * the answer's text, or a rejection unless it is 2xx.
 */
export function streamTo(
  target: Target,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Readable,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: target.port, path, method, headers },
      (response) => {
        let answer = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (answer += chunk));
        response.on('end', () =>
          (response.statusCode ?? 500) < 300
            ? resolve(answer)
            : reject(new Error(`${method} ${path}: ${response.statusCode} ${answer}`)),
        );
      },
    );
    request.on('error', reject);
    body.on('error', (error) => request.destroy(error));
    body.pipe(request);
  });
}
