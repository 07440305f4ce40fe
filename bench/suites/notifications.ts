import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Pool } from 'pg';
import { PlatClient, PlatIdentity, type KeyFileJson } from '../../src/protocol/client';
import { root } from '../fleet';
import { SkipScenario, type PlanContext, type Scenario } from '../scenario-kit';
import { MEMBERS_TOPIC, spaceId, sqlDid, topicId } from '../seed-plan';

/**
 * Post create in a 50,000-member space vs a 5-member space (docs/decisions/0049-content-notifications.md): announcing a post to
 * its members is a background job (notify.post.created), so the author's POST answers at the same
 * rate whatever the space's size (target: ≥ 0.9 of the small one's req/s). Both spaces are seeded
 * spaces the bench actors belong to whose seed has only an owner: space 6 keeps its 5 members
 * (owner and the four actors); space 12 is topped up here to 50,000 active members (DIDs without
 * chains: they are only recipients). Each post goes to the members topic (no content chain), signed
 * per request with a fresh jti, rotating over the actors.
 */

const SMALL_SPACE_NUMBER = 6;
const BIG_SPACE_NUMBER = 12;
const BIG_MEMBERS = 50_000;

const entityId = (space: number) => `space_${spaceId(space).replace(/-/g, '')}`;

async function topUp(context: PlanContext, space: number, members: number): Promise<void> {
  const id = spaceId(space);
  await context.pool.query(
    `INSERT INTO space_memberships (space_id, member_did, role, status, joined_at, created_at, updated_at)
     SELECT $1::uuid, ${sqlDid(`'notify-member-' || k`)}, 'member', 'active', now(), now(), now()
       FROM generate_series(1, $2::int) AS k
     ON CONFLICT DO NOTHING`,
    [id, members],
  );
  const { rows } = await context.pool.query<{ n: number }>(
    `UPDATE spaces SET member_count =
       (SELECT count(*) FROM space_memberships WHERE space_id = $1 AND status = 'active')
     WHERE id = $1 RETURNING member_count AS n`,
    [id],
  );
  context.log(`space ${space}: ${rows[0]?.n} active members`);
}

function postCreate(space: number, label: string, extra: Partial<Scenario>): Scenario {
  return {
    name: `post create in a ${label} space`,
    group: 'write',
    request: async (context) => {
      if (space === BIG_SPACE_NUMBER) await topUp(context, space, BIG_MEMBERS);
      return {
        method: 'POST',
        path: `/v1/spaces/${entityId(space)}/posts`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          topic: `topic_${topicId(space, MEMBERS_TOPIC).replace(/-/g, '')}`,
          body: 'A benchmark post, announced to every member by a background job.',
        }),
        proof: { actors: context.actors.writers, perRequest: true, audience: context.audience },
      };
    },
    against: { kind: 'none' },
    ...extra,
  };
}

/**
 * A join of a 50,000-member space vs a 5-member space (docs/decisions/0109-join-announcements-as-a-job.md): every other member is
 * told by a background job (notifications.announce-join) and the join counts its member up, so
 * the joining request answers at the same rate whatever the space's size (target: ≥ 0.9 of the
 * small one's req/s). Seeded spaces 52 (public, open, its owner and 4 members) and 53 (public,
 * open, topped up here to 50,000 active members); no bench actor belongs to either. The joiners
 * are JOINERS identities of their own (published through the app's relay when the run plans;
 * their key files kept in .data, since making one costs milliseconds): request i of a phase is
 * joiner i's `POST /spaces/{id}/join`, signed with a fresh jti, and before every phase the
 * joiners' memberships go back to `left`, so each join of the phase is a real one (a rejoin:
 * the same admission, the membership row updated rather than inserted).
 */

const SMALL_JOIN_SPACE = 52;
const BIG_JOIN_SPACE = 53;
/** More than a phase sends: a warm-up of at most 10 s and 3 s measured at a few hundred joins/s. */
const JOINERS = 6000;
const JOINERS_FILE = join(root, '.data/bench-joiners.json');
/** Operations per relay ingest request (the relay's MAX_INGEST_BATCH). */
const INGEST_BATCH = 100;

let joiners: Promise<KeyFileJson[]> | undefined;

/** The joiners' key files (made once per machine), their identities published on this run's relay. */
function joinersOf(context: PlanContext): Promise<KeyFileJson[]> {
  joiners ??= (async () => {
    let files: KeyFileJson[] = existsSync(JOINERS_FILE)
      ? (JSON.parse(readFileSync(JOINERS_FILE, 'utf8')) as KeyFileJson[])
      : [];
    if (files.length < JOINERS) {
      context.log(`joiners: making ${JOINERS} identities (once per machine, ${JOINERS_FILE})`);
      files = Array.from({ length: JOINERS }, () => PlatIdentity.create().toKeyFile());
      mkdirSync(dirname(JOINERS_FILE), { recursive: true });
      writeFileSync(JOINERS_FILE, JSON.stringify(files));
    }
    files = files.slice(0, JOINERS);
    const client = new PlatClient({ baseUrl: context.appUrl, audience: context.audience });
    const geneses = files.map((file) => file.log[0]);
    for (let at = 0; at < geneses.length; at += INGEST_BATCH)
      await client.publishOperations(geneses.slice(at, at + INGEST_BATCH));
    context.log(`joiners: ${files.length} identities published`);
    return files;
  })();
  return joiners;
}

/** Before a phase: every joiner has left both join spaces again (and the counts are recounted). */
async function joinersLeave(pool: Pool, dids: string[]): Promise<void> {
  for (const space of [SMALL_JOIN_SPACE, BIG_JOIN_SPACE]) {
    const { rowCount } = await pool.query(
      `UPDATE space_memberships SET status = 'left' WHERE space_id = $1 AND member_did = ANY($2) AND status = 'active'`,
      [spaceId(space), dids],
    );
    // Every joiner joined in the last phase: it may have sent more joins than there are joiners.
    if (rowCount === dids.length)
      console.error(`[bench] space ${space}: all ${dids.length} joiners had joined; raise JOINERS`);
    await pool.query(
      `UPDATE spaces SET member_count =
         (SELECT count(*) FROM space_memberships WHERE space_id = $1 AND status = 'active') WHERE id = $1`,
      [spaceId(space)],
    );
  }
}

function joinSpace(space: number, label: string, extra: Partial<Scenario>): Scenario {
  let dids: string[] = [];
  return {
    name: `join a ${label} space`,
    group: 'write',
    request: async (context) => {
      if (context.plan.spaces < BIG_JOIN_SPACE)
        throw new SkipScenario(`the seed has no space ${BIG_JOIN_SPACE} (BENCH_SEED_SPACES)`);
      const files = await joinersOf(context);
      dids = files.map((file) => file.did);
      if (space === BIG_JOIN_SPACE) await topUp(context, space, BIG_MEMBERS);
      return {
        method: 'POST',
        path: `/spaces/${entityId(space)}/join`,
        headers: { 'content-type': 'application/json' },
        body: '{}',
        proof: { actors: files, perRequest: true, audience: context.audience },
      };
    },
    beforePhase: (pool) => joinersLeave(pool, dids),
    against: { kind: 'none' },
    ...extra,
  };
}

export const notificationScenarios: Scenario[] = [
  postCreate(SMALL_SPACE_NUMBER, '5-member', {}),
  postCreate(BIG_SPACE_NUMBER, '50,000-member', {
    relativeTo: 'post create in a 5-member space',
    target: { relative: 0.9 },
  }),
  joinSpace(SMALL_JOIN_SPACE, '5-member', {}),
  joinSpace(BIG_JOIN_SPACE, '50,000-member', {
    relativeTo: 'join a 5-member space',
    target: { relative: 0.9 },
  }),
];
