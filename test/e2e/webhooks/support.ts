import * as http from 'node:http';
import { createPublicKey, verify } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import request from 'supertest';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { WebhookDeliveriesService } from '../../../src/webhooks/services/webhook-deliveries.service';
import { Actor } from '../../support/actors';
import { bootSpaces, SpacesTestApp } from '../spaces/support';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the receiver answers a request: a status, or `hang` (never answers). */
export type Answer = number | 'hang';

/**
 * A local receiver of webhook deliveries: records every request (path, headers, raw body) and
 * answers from `answers` (in order, then `fallback`).
 */
export class Receiver {
  readonly received: Received[] = [];
  answers: Answer[] = [];
  fallback: Answer = 204;
  private readonly sockets = new Set<Socket>();
  private readonly server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      this.received.push({
        path: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = this.answers.length > 0 ? this.answers.shift()! : this.fallback;
      if (answer === 'hang') return;
      response.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  port = 0;

  async start(): Promise<this> {
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The requests whose payload has `type`. */
  of(type: string): Received[] {
    return this.received.filter((item) => (JSON.parse(item.body) as { type: string }).type === type);
  }

  /** Cuts every open connection (a hanging answer ends in a network error for its sender). */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Boots the service with the receivers let through the outbound guard and a quick sweep. */
export function bootWithReceivers(
  receivers: Receiver[],
  env: Record<string, string> = {},
  databaseUrl?: string,
): Promise<SpacesTestApp> {
  return bootSpaces({
    databaseUrl,
    env: {
      OUTBOUND_ALLOWED_PRIVATE_HOSTS: receivers.map((receiver) => receiver.host).join(','),
      WEBHOOK_SWEEP_MS: '100',
      JOB_OUTBOX_SWEEP_MS: '200',
      ...env,
    },
  });
}

/**
 * How many calls of the app's `sweep` or `attempt` of deliveries are running now (counted from
 * this call on): a test waits for one to end instead of sleeping a while.
 */
export function running(t: SpacesTestApp, method: 'sweep' | 'attempt'): () => number {
  const deliveries = t.app.get(WebhookDeliveriesService);
  const original = deliveries[method] as (...args: unknown[]) => Promise<unknown>;
  let count = 0;
  Object.defineProperty(deliveries, method, {
    configurable: true,
    writable: true,
    value: async (...args: unknown[]) => {
      count += 1;
      try {
        return await original.apply(deliveries, args);
      } finally {
        count -= 1;
      }
    },
  });
  return () => count;
}

export const person = (t: SpacesTestApp): Promise<Actor> => Actor.create(t, { clock: () => t.clock.now() });

/** Verifies the `v1` signatures with the `standardwebhooks` package (an independent implementation). */
export function verifiesWith(secret: string, received: Received): boolean {
  const headers = {
    'webhook-id': received.headers['webhook-id'] as string,
    'webhook-timestamp': received.headers['webhook-timestamp'] as string,
    // The package reads only `v1,` entries; an Ed25519 `v1a,` beside them is skipped.
    'webhook-signature': received.headers['webhook-signature'] as string,
  };
  try {
    const verifier = new StandardWebhook(secret);
    // Its tolerance window is checked against the real time; the test's clock may be ahead.
    (verifier as unknown as { verifyTimestamp: (header: string) => Date }).verifyTimestamp = (header) =>
      new Date(Number(header) * 1000);
    verifier.verify(received.body, headers);
    return true;
  } catch {
    return false;
  }
}

/**
 * The origin key as a receiver finds it (docs/decisions/0163-webhook-signatures.md): the relay's
 * well-known profile names the origin DID, the relay's identity state of that DID (`state.assertKeys`) lists its assert
 * keys (multibase `z` + base58btc of 0xed01 + the raw Ed25519 key).
 */
export async function originPublicKeys(t: SpacesTestApp): Promise<Buffer[]> {
  const profile = await request(t.http).get('/relay/.well-known/plat-relay');
  const did = profile.body.did as string;
  const state = await request(t.http).get(`/relay/proof/v1/identities/${encodeURIComponent(did)}`);
  const keys = state.body.state.assertKeys as { publicKeyMultibase: string }[];
  return keys.map((key) => {
    const bytes = base58btc(key.publicKeyMultibase.slice(1));
    if (bytes[0] !== 0xed || bytes[1] !== 0x01) throw new Error('not an Ed25519 multikey');
    return bytes.subarray(2);
  });
}

/** Whether one `v1a,` signature of the request verifies under one of `keys` (node:crypto, no code of ours). */
export function verifiesAsOrigin(keys: Buffer[], received: Received): boolean {
  const content = Buffer.from(
    `${received.headers['webhook-id'] as string}.${received.headers['webhook-timestamp'] as string}.${received.body}`,
  );
  const signatures = (received.headers['webhook-signature'] as string)
    .split(' ')
    .filter((entry) => entry.startsWith('v1a,'))
    .map((entry) => Buffer.from(entry.slice(4), 'base64'));
  return signatures.some((signature) =>
    keys.some((raw) =>
      verify(
        null,
        content,
        createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' }),
        signature,
      ),
    ),
  );
}

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58btc(text: string): Buffer {
  let value = 0n;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) throw new Error('not base58btc');
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value % 256n));
    value /= 256n;
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Buffer.from(bytes);
}
