import type { PlanContext, Scenario } from '../scenario-kit';
import { MEMBERS_TOPIC, spaceId, sqlDid, topicId } from '../seed-plan';

/**
 * Post create in a 50,000-member space vs a 5-member space (issue 16 item 2): announcing a post to
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

export const notificationScenarios: Scenario[] = [
  postCreate(SMALL_SPACE_NUMBER, '5-member', {}),
  postCreate(BIG_SPACE_NUMBER, '50,000-member', {
    relativeTo: 'post create in a 5-member space',
    target: { relative: 0.9 },
  }),
];
