import Redis from 'ioredis';
import * as http from 'node:http';
import type { Pool } from 'pg';
import { PlanContext, RunFacts, Scenario, SkipScenario } from '../scenario-kit';
import { MEMBERS_TOPIC, spaceId, topicId } from '../seed-plan';

/**
 * A post create in a space with 10 webhook subscriptions vs the same write with none
 * (docs/decisions/0162-webhook-delivery-state-in-postgresql.md): the write records one fan-out row
 * in the job outbox whatever the number of subscriptions, and the deliveries run in the
 * background (target: ≥ 0.9 of the write without subscriptions). Both post into the members topic
 * of seeded space 6 (its owner and the four bench actors; no content chain), rotating over the
 * actors; before each phase the space's subscriptions are set: none, or 10 member-view
 * subscriptions to `post.created` whose deliveries go to a receiver in this process (answering
 * 204 at once), let through the outbound guard by OUTBOUND_ALLOWED_PRIVATE_HOSTS. Both scenarios
 * share one app environment, so one app process serves both.
 *
 * The app runs as it is deployed for this: `PLAT_ROLE=api` on Redis, its jobs queued for workers
 * elsewhere (docs/decisions/0117-process-roles.md), so what is measured is the request's own cost,
 * the "delivery is never in the request". On two CPUs an `all` process spends them on the
 * deliveries too (bench/JOURNAL.md, 2026-11-29 webhooks: 0.41–0.59); the worker's own throughput
 * is another measure. The queue's keys have a prefix of their own, emptied before each phase.
 */

const SPACE = 6;
const SUBSCRIPTIONS = 10;
/** The bench's webhook receiver (a port of its own, so the app's environment is known before it starts). */
const RECEIVER_PORT = 47_613;
const RECEIVER = `127.0.0.1:${RECEIVER_PORT}`;

/** The BullMQ key prefix of these scenarios' app: nothing else reads it. */
const JOBS_PREFIX = 'plat-bench:webhook-jobs';

const entityId = (space: number) => `space_${spaceId(space).replace(/-/g, '')}`;

let receiver: Promise<{ received: () => number }> | undefined;

/** Starts the receiver once per run; it counts what it received. */
function startReceiver(): Promise<{ received: () => number }> {
  receiver ??= new Promise((resolve, reject) => {
    let received = 0;
    const server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        received += 1;
        response.writeHead(204).end();
      });
    });
    server.on('error', reject);
    server.listen(RECEIVER_PORT, '127.0.0.1', () => {
      server.unref();
      resolve({ received: () => received });
    });
  });
  return receiver;
}

/** The space's subscriptions: none, or `count` enabled member-view ones to the receiver. */
async function subscriptions(pool: Pool, count: number, creatorDid: string): Promise<void> {
  await pool.query('DELETE FROM webhooks WHERE space_id = $1', [spaceId(SPACE)]);
  if (count === 0) return;
  await pool.query(
    `INSERT INTO webhooks (id, space_id, url, events, description, include_members_only, enabled, secret,
       created_by_did, created_at, updated_at)
     SELECT gen_random_uuid(), $1, 'http://${RECEIVER}/hook/' || k, ARRAY['post.created'], 'bench', true, true,
       'whsec_' || encode(decode(md5(random()::text) || md5(random()::text), 'hex'), 'base64'), $3, now(), now()
       FROM generate_series(1, $2::int) AS k`,
    [spaceId(SPACE), count, creatorDid],
  );
}

/** The api role's environment on the run's Redis; skipped without one. */
let redisUrl: string | null = null;
function apiRole(facts: RunFacts) {
  if (!facts.redisUrl) throw new SkipScenario('needs Redis: the api role queues its jobs there');
  redisUrl = facts.redisUrl;
  return {
    OUTBOUND_ALLOWED_PRIVATE_HOSTS: RECEIVER,
    PLAT_ROLE: 'api',
    REDIS_URL: facts.redisUrl,
    JOBS_REDIS_PREFIX: JOBS_PREFIX,
  };
}

/** Drops what earlier phases queued (no worker ever takes it). */
async function emptyQueue(): Promise<void> {
  if (!redisUrl) return;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${JOBS_PREFIX}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

function postCreate(count: number, extra: Partial<Scenario>): Scenario {
  let creatorDid = '';
  return {
    name:
      count === 0
        ? 'post create without webhook subscriptions'
        : `post create with ${count} webhook subscriptions`,
    group: 'write',
    env: apiRole,
    request: async (context: PlanContext) => {
      await startReceiver();
      creatorDid = context.actors.writers[0].did;
      return {
        method: 'POST',
        path: `/v1/spaces/${entityId(SPACE)}/posts`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          topic: `topic_${topicId(SPACE, MEMBERS_TOPIC).replace(/-/g, '')}`,
          body: 'A benchmark post, delivered to the space’s webhooks by background jobs.',
        }),
        proof: { actors: context.actors.writers, perRequest: true, audience: context.audience },
      };
    },
    beforePhase: async (pool) => {
      await emptyQueue();
      await subscriptions(pool, count, creatorDid);
    },
    against: { kind: 'none' },
    ...extra,
  };
}

export const webhookScenarios: Scenario[] = [
  postCreate(0, {}),
  postCreate(SUBSCRIPTIONS, {
    relativeTo: 'post create without webhook subscriptions',
    target: { relative: 0.9 },
  }),
];
