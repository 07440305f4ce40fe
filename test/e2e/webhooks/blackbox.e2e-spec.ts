import { createHmac, createPublicKey, randomUUID, timingSafeEqual, verify } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Redis from 'ioredis';
import { AppConfig, loadConfig } from '../../../src/config/app-config';
import type { DisposableDatabase } from '../../../src/infrastructure/database/disposable-database';
import { Actor, ServiceTarget } from '../../support/actors';
import { createMigratedTestDatabase } from '../../support/database';
import { eventually } from '../../support/eventually';
import { closedPort } from '../../support/network';
import { makePublic, newSpace } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { expectStatus } from '../spaces/support';
import { assertBuildIsCurrent, ServiceProcess, startService, stopAll } from '../topology/service-processes';

const REDIS_URL = process.env.REDIS_URL;
/** Generous: Node processes boot at once on a loaded 2-core machine. */
const READY_WITHIN_MS = 90_000;
/**
 * An attempt's lease, shortened from its minute so the held deliveries come back sooner; still
 * above WEBHOOK_TIMEOUT_MS (10 s), so no live attempt loses its delivery to the other worker.
 */
const LEASE_MS = 15_000;
/** A delivery a dead worker held comes back once its attempt's lease is over. */
const TAKEOVER_WITHIN_MS = 120_000;

/**
 * The "How it will be checked" (issue 33): a receiver of its own, outside the service, that
 * verifies every signature with its own code and counts deliveries and duplicates while the
 * delivering replicas are killed. Nothing here comes from src/webhooks: the receiver computes the
 * Standard Webhooks `v1` HMAC-SHA256 of `id.timestamp.body` under the base64 after `whsec_`, and
 * checks `v1a` with node:crypto's Ed25519 against the origin's keys, resolved over HTTP as
 * docs/decisions/0163-webhook-signatures.md tells a receiver to: `GET /v1/protocol` → the relay →
 * its well-known profile (the origin DID) → the DID's identity state (`state.assertKeys`).
 *
 * The service is the built one (`node dist/src/main.js`) as processes: one `api` and two `worker`
 * replicas on one database and Redis. Both workers are SIGKILLed while the receiver holds their
 * attempts unanswered; posts are written while no worker runs; a fresh worker then delivers
 * everything, the held ones again (the same `webhook-id`, the same body).
 */
(REDIS_URL ? describe : describe.skip)(
  `webhooks checked by an independent receiver while workers are killed${REDIS_URL ? '' : ' [skipped: needs REDIS_URL]'}`,
  () => {
    const running: ServiceProcess[] = [];
    let database: DisposableDatabase | undefined;
    let config: AppConfig;
    let common: Record<string, string>;
    let api: ServiceProcess;
    let receiver: IndependentReceiver;

    const processEnv = async (role: 'api' | 'worker'): Promise<Record<string, string>> => ({
      ...common,
      PLAT_ROLE: role,
      PORT: String(await closedPort()),
      METRICS_PORT: String(await closedPort()),
    });

    beforeAll(async () => {
      assertBuildIsCurrent();
      receiver = await new IndependentReceiver().start();
      // A copy of the run's migrated template: the migrate step itself is two-tiers-as-processes' to run.
      database = await createMigratedTestDatabase();
      common = {
        NODE_ENV: 'development',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        PUBLIC_BASE_URL: 'http://api.plat.test',
        DATABASE_URL: database.url,
        REDIS_URL: REDIS_URL!,
        CURSOR_SECRET: 'blackbox-cursor-secret-blackbox-cursor',
        MEDIA_URL_SECRET: 'blackbox-media-url-secret-blackbox-media',
        ORIGIN_KEY: Buffer.alloc(32, 9).toString('base64url'),
        MIGRATE_ON_BOOT: 'false',
        JOBS_REDIS_PREFIX: `plat:test:${randomUUID()}:jobs`,
        RATE_LIMIT_REDIS_PREFIX: `plat:test:${randomUUID()}:`,
        STREAM_REDIS_PREFIX: `plat:test:${randomUUID()}:stream:`,
        JOBS_LOCK_MS: '4000',
        JOBS_STALLED_CHECK_MS: '1000',
        WEBHOOK_SWEEP_MS: '500',
        WEBHOOK_LEASE_MS: String(LEASE_MS),
        OUTBOUND_ALLOWED_PRIVATE_HOSTS: receiver.host,
      };
      config = loadConfig(common);
      const envs = await Promise.all([processEnv('api'), processEnv('worker'), processEnv('worker')]);
      const started = await Promise.allSettled(
        ['api', 'worker-1', 'worker-2'].map((name, index) =>
          startService(name, envs[index], READY_WITHIN_MS),
        ),
      );
      for (const outcome of started) if (outcome.status === 'fulfilled') running.push(outcome.value);
      const failed = started.find((outcome) => outcome.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
      api = running[0];
    }, 150_000);

    afterAll(async () => {
      await stopAll(running);
      await receiver?.stop();
      if (config) await dropKeys(REDIS_URL!, [common.JOBS_REDIS_PREFIX, common.RATE_LIMIT_REDIS_PREFIX]);
      await database?.drop();
    }, 30_000);

    it('every delivery verifies (v1 and v1a), arrives at least once, and only the ones held by killed workers twice', async () => {
      const target: ServiceTarget = { http: api.base, config };
      const owner = await Actor.create(target);
      const space = await newSpace(owner, 'Checked');
      await makePublic(owner, space.id);
      const topic = await newTopic(owner, space.id, 'Open', 'public');
      const subscribe = async (path: string, includeMembersOnly: boolean) => {
        const created = await owner.post(`/spaces/${space.id}/webhooks`, {
          url: receiver.url(path),
          events: ['post.created'],
          includeMembersOnly,
        });
        expectStatus(created, 201);
        receiver.secrets.set(path, created.body.secret as string);
      };
      await subscribe('/public', false);
      await subscribe('/members', true);
      await receiver.resolveOriginKeys(api.base);
      const paths = ['/public', '/members'];
      const posts: string[] = [];
      const post = async (title: string) =>
        posts.push((await newPost(owner, space.id, { topic, title, body: title })).id);
      const allArrived = () =>
        eventually(
          () => receiver.answered(),
          (answered) => posts.every((id) => paths.every((path) => answered.has(`${path} ${id}`))),
          TAKEOVER_WITHIN_MS,
        );

      // Both workers deliver: every post once to each subscription.
      for (let i = 0; i < 6; i++) await post(`Before ${i}`);
      await allArrived();
      expect(receiver.duplicates()).toEqual([]);

      // The receiver holds what comes next; both workers die while it does.
      receiver.holding = true;
      await post('Held');
      await eventually(
        () => receiver.held.length,
        (count) => count === 2,
        30_000,
      );
      const heldKeys = receiver.held.map((entry) => `${entry.path} ${entry.id}`).sort();
      for (const worker of running.slice(1)) await worker.stop('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 300));
      receiver.releaseHeld();
      receiver.holding = false;

      // Written while no worker runs: the outbox and the queue keep them.
      for (let i = 0; i < 4; i++) await post(`Meanwhile ${i}`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(receiver.received.filter((entry) => entry.title?.startsWith('Meanwhile'))).toEqual([]);

      // A fresh worker delivers everything, the held ones once their lease is over.
      running.push(await startService('worker-3', await processEnv('worker'), READY_WITHIN_MS));
      await allArrived();

      expect(receiver.unverified()).toEqual([]);
      // The receiver's checks can fail: one changed byte of a body fails both.
      expect(receiver.verifiesTampered(receiver.received[0])).toEqual({ v1: false, v1a: false });
      expect(receiver.received.length).toBeGreaterThanOrEqual(posts.length * paths.length);
      const duplicates = receiver.duplicates();
      expect(duplicates.map((entry) => entry.key).sort()).toEqual(heldKeys);
      for (const entry of duplicates) {
        expect(entry.count).toBe(2);
        expect(entry.sameBody).toBe(true);
      }
      // One message id per occurrence, the same for both subscriptions (a receiver can order by it).
      const ids = new Set(receiver.received.map((entry) => entry.id));
      expect(ids.size).toBe(posts.length);
    }, 300_000);
  },
);

interface Arrival {
  path: string;
  id: string;
  timestamp: string;
  body: string;
  type: string;
  /** The post's id and title, when the payload carries a post. */
  postId?: string;
  title?: string;
  /** Whether some `v1` entry verified under the subscription's secret. */
  v1: boolean;
  /** Whether some `v1a` entry verified under one of the origin's keys. */
  v1a: boolean;
  /** Whether the receiver answered it 2xx. */
  answered: boolean;
}

/** A webhook receiver with verification code of its own (node:crypto only). */
class IndependentReceiver {
  readonly received: Arrival[] = [];
  readonly secrets = new Map<string, string>();
  /** While true, requests are recorded but not answered (their sender waits). */
  holding = false;
  readonly held: Array<{ path: string; id: string; response: http.ServerResponse }> = [];
  private originKeys: Buffer[] = [];
  private readonly signatures = new Map<Arrival, string[]>();
  private readonly sockets = new Set<Socket>();
  private readonly server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = incoming.url ?? '/';
      const id = header(incoming, 'webhook-id');
      const timestamp = header(incoming, 'webhook-timestamp');
      const signatures = header(incoming, 'webhook-signature').split(' ');
      const payload = JSON.parse(body) as { type: string; data?: { post?: { id: string; title?: string } } };
      const signed = Buffer.from(`${id}.${timestamp}.${body}`, 'utf8');
      const arrival: Arrival = {
        path,
        id,
        timestamp,
        body,
        type: payload.type,
        postId: payload.data?.post?.id,
        title: payload.data?.post?.title,
        v1: this.verifiesV1(path, signed, signatures),
        v1a: this.verifiesV1a(signed, signatures),
        answered: false,
      };
      this.received.push(arrival);
      this.signatures.set(arrival, signatures);
      if (this.holding) {
        this.held.push({ path, id, response });
        return;
      }
      arrival.answered = true;
      response.writeHead(204).end();
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

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /**
   * The origin's keys as a receiver finds them: `GET /v1/protocol` names the relay's well-known
   * profile (the origin DID) and identity route; that DID's identity state lists its assert keys
   * (multibase `z`: base58btc of the multicodec 0xed 0x01 and the raw Ed25519 key).
   */
  async resolveOriginKeys(base: string): Promise<void> {
    const protocol = (await getJson(`${base}/v1/protocol`)) as {
      endpoints: { wellKnown: string; identity: string };
    };
    // The public host is not reachable here: the same paths are asked of the api process.
    const local = (url: string) => `${base}${new URL(url).pathname}`;
    const profile = (await getJson(local(protocol.endpoints.wellKnown))) as { did: string };
    const state = (await getJson(
      local(protocol.endpoints.identity.replace('{did}', encodeURIComponent(profile.did))),
    )) as { state: { assertKeys: { publicKeyMultibase: string }[] } };
    this.originKeys = state.state.assertKeys.map((key) => {
      if (!key.publicKeyMultibase.startsWith('z')) throw new Error('not a base58btc multibase key');
      const bytes = base58btc(key.publicKeyMultibase.slice(1));
      if (bytes[0] !== 0xed || bytes[1] !== 0x01 || bytes.length !== 34)
        throw new Error('not an Ed25519 multikey');
      return bytes.subarray(2);
    });
    if (this.originKeys.length === 0) throw new Error('the origin publishes no assert key');
  }

  /** Ends what is held (its senders are dead: not counted as answered, so it must come again). */
  releaseHeld(): void {
    for (const entry of this.held.splice(0)) {
      if (entry.response.destroyed || entry.response.socket?.destroyed) continue;
      entry.response.writeHead(204).end();
    }
  }

  /** `path postId` of every occurrence answered 2xx. */
  answered(): Set<string> {
    return new Set(
      this.received.filter((item) => item.answered).map((item) => `${item.path} ${item.postId}`),
    );
  }

  /** What arrived more than once on one subscription under one `webhook-id`. */
  duplicates(): Array<{ key: string; count: number; sameBody: boolean }> {
    const byKey = new Map<string, Arrival[]>();
    for (const item of this.received) {
      const key = `${item.path} ${item.id}`;
      byKey.set(key, [...(byKey.get(key) ?? []), item]);
    }
    return [...byKey.entries()]
      .filter(([, items]) => items.length > 1)
      .map(([key, items]) => ({
        key,
        count: items.length,
        sameBody: items.every((item) => item.body === items[0].body),
      }));
  }

  /** Arrivals whose `v1` or `v1a` signature did not verify. */
  unverified(): Array<{ path: string; id: string; v1: boolean; v1a: boolean }> {
    return this.received
      .filter((item) => !item.v1 || !item.v1a)
      .map(({ path, id, v1, v1a }) => ({ path, id, v1, v1a }));
  }

  /** The checks of `arrival` with its body's first digit changed. */
  verifiesTampered(arrival: Arrival): { v1: boolean; v1a: boolean } {
    const body = arrival.body.replace(/[0-9]/, (digit) => String((Number(digit) + 1) % 10));
    const signed = Buffer.from(`${arrival.id}.${arrival.timestamp}.${body}`, 'utf8');
    const signatures = this.signatures.get(arrival) ?? [];
    return {
      v1: this.verifiesV1(arrival.path, signed, signatures),
      v1a: this.verifiesV1a(signed, signatures),
    };
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private verifiesV1(path: string, signed: Buffer, signatures: string[]): boolean {
    const secret = this.secrets.get(path);
    if (!secret?.startsWith('whsec_')) return false;
    const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(signed)
      .digest();
    return signatures
      .filter((entry) => entry.startsWith('v1,'))
      .map((entry) => Buffer.from(entry.slice(3), 'base64'))
      .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  }

  private verifiesV1a(signed: Buffer, signatures: string[]): boolean {
    const keys = this.originKeys.map((raw) =>
      createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' }),
    );
    return signatures
      .filter((entry) => entry.startsWith('v1a,'))
      .map((entry) => Buffer.from(entry.slice(4), 'base64'))
      .some((given) => keys.some((key) => verify(null, signed, key, given)));
  }
}

function header(incoming: http.IncomingMessage, name: string): string {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(' ') : (value ?? '');
}

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return response.json();
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

async function dropKeys(redisUrl: string, prefixes: string[]): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for (const prefix of prefixes) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}
