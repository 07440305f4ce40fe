import type { DemoApi } from './demo-api';
import type { SeededPerson } from './people';
import type { DemoSpace } from './plan';

export interface SeededSpace {
  id: string;
  did: string;
  domain: string;
  created: boolean;
}

type People = ReadonlyMap<string, SeededPerson>;

export function personOf(people: People, handle: string): SeededPerson {
  const person = people.get(handle);
  if (!person) throw new Error(`the demo plan names @${handle}, who is not among its people`);
  return person;
}

/**
 * The space as its owner sees it among their memberships (found by domain, or by name when an
 * interrupted run created it but did not claim the domain), else created; then its domain, public
 * profile and directory settings are written where they differ from the plan.
 */
export async function ensureSpace(api: DemoApi, plan: DemoSpace, people: People): Promise<SeededSpace> {
  const owner = personOf(people, plan.owner).identity;
  const mine = await api.all<{
    role: string;
    space: { id: string; did: string; domain: string; displayName: string };
  }>(owner, '/v1/memberships?role=owner');
  const found =
    mine.find(({ space }) => space.domain === plan.domain) ??
    mine.find(({ space }) => space.displayName === plan.displayName);
  let space: { id: string; did: string };
  if (found) {
    space = found.space;
  } else {
    space = (
      await api.call<{ id: string; did: string }>(owner, 'POST', '/spaces', {
        displayName: plan.displayName,
        description: plan.description,
      })
    ).body;
  }
  // Only changes are written: space profile writes append to the space's profile chain.
  if (found?.space.domain !== plan.domain) {
    await api.call(owner, 'PUT', `/spaces/${space.id}/domain`, { domain: plan.domain });
  }
  const shown = await api.call<{ joinMode: string; category?: string }>(
    null,
    'GET',
    `/v1/spaces/${space.id}`,
    undefined,
    [200, 404],
  );
  if (shown.status === 404 || shown.body.joinMode !== 'open') {
    await api.call(owner, 'PUT', `/spaces/${space.id}/public-config`, { isPublic: true, joinMode: 'open' });
  }
  if (shown.status === 404 || shown.body.category !== plan.category) {
    await api.call(owner, 'PUT', `/spaces/${space.id}/site`, {
      category: plan.category,
      discoveryOptIn: true,
    });
  }
  return { id: space.id, did: space.did, domain: plan.domain, created: !found };
}

/** Members join the open space themselves; admins are then promoted by the owner. */
export async function ensureMembers(api: DemoApi, space: SeededSpace, plan: DemoSpace, people: People) {
  const owner = personOf(people, plan.owner).identity;
  const current = await api.all<{ did: string; role: string }>(owner, `/spaces/${space.id}/members`);
  const roles = new Map(current.map((member) => [member.did, member.role]));
  for (const handle of plan.members) {
    const member = personOf(people, handle).identity;
    if (!roles.has(member.did)) await api.call(member, 'POST', `/spaces/${space.id}/join`, {});
  }
  for (const handle of plan.admins) {
    const admin = personOf(people, handle).identity;
    if (roles.get(admin.did) !== 'admin') {
      await api.call(owner, 'PUT', `/spaces/${space.id}/members/${admin.did}`, { role: 'admin' });
    }
  }
}
