import { Response } from 'supertest';
import { Actor } from '../../support/actors';
import { bootSpaces, expectStatus, SpacesTestApp } from '../spaces/support';

export { bootSpaces, expectStatus };
export type { SpacesTestApp };

/** A person with a real identity, signing by the service's shifted clock. */
export const person = (t: SpacesTestApp): Promise<Actor> => Actor.create(t, { clock: () => t.clock.now() });

export async function newSpace(owner: Actor, displayName = 'Makers'): Promise<{ id: string; did: string }> {
  const response = await owner.post('/spaces', { displayName, description: 'A place to make things' });
  expectStatus(response, 201);
  return response.body as { id: string; did: string };
}

export async function makePublic(owner: Actor, spaceId: string, joinMode = 'open'): Promise<void> {
  expectStatus(await owner.put(`/spaces/${spaceId}/public-config`, { isPublic: true, joinMode }), 200);
}

/** Makes `member` an active member of the space through an invite of `owner`. */
export async function admit(owner: Actor, spaceId: string, member: Actor): Promise<void> {
  const invite = await owner.post(`/spaces/${spaceId}/my-invite`, {});
  expectStatus(invite, 201);
  expectStatus(await member.post(`/spaces/join/${invite.body.inviteCode}`, {}), 200);
}

export async function promote(owner: Actor, spaceId: string, member: Actor): Promise<void> {
  expectStatus(await owner.put(`/spaces/${spaceId}/members/${member.did}`, { role: 'admin' }), 200);
}

export async function newGroup(
  admin: Actor,
  spaceId: string,
  body: Record<string, unknown> = { name: 'Crew' },
): Promise<{ id: string; did: string }> {
  const response = await admin.post(`/spaces/${spaceId}/groups`, body);
  expectStatus(response, 201);
  return response.body as { id: string; did: string };
}

export async function addToGroup(
  admin: Actor,
  spaceId: string,
  groupId: string,
  member: Actor,
): Promise<Response> {
  const response = await admin.put(`/spaces/${spaceId}/groups/${groupId}/members/${member.did}`, {});
  expectStatus(response, 200);
  return response;
}
