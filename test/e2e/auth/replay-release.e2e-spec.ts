import request from 'supertest';
import { Actor } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';

/**
 * design.md §3 "Record the jti last, so that a 401/403/503 does not use it up", for refusals that
 * come from the route itself (not the proof): the same signed request, sent again once the caller's
 * standing changed, is served; a non-member's write to a private space stays the 404 (never 409,
 * api-spec.md "Authentication" item 4); only a write that was carried out spends its jti.
 */
describe('refused writes leave their jti unspent (e2e)', () => {
  let t: TestApp;
  let owner: Actor;
  let member: Actor;
  let publicSpace: string;
  let privateSpace: string;

  beforeAll(async () => {
    t = await bootApp();
    [owner, member] = await Promise.all([Actor.create(t), Actor.create(t)]);
    expect((await owner.signUp('release-owner')).status).toBe(201);
    expect((await member.signUp('release-member')).status).toBe(201);
    const create = async (name: string) =>
      ((await owner.post('/spaces', { displayName: name, description: 'd' })).body as { id: string }).id;
    publicSpace = await create('Public');
    privateSpace = await create('Private');
    expect(
      (await owner.put(`/spaces/${publicSpace}/public-config`, { isPublic: true, joinMode: 'open' })).status,
    ).toBe(200);
  });

  afterAll(async () => {
    await t.close();
  });

  /** One signed request, sendable several times byte for byte. */
  const signed = (actor: Actor, method: 'PUT' | 'PATCH', path: string, body: object) => {
    const headers = actor.headers(method, path);
    return () => {
      const call = method === 'PUT' ? request(t.http).put(path) : request(t.http).patch(path);
      return call.set(headers).send(body);
    };
  };

  it('a 403 from the route (not a member yet) does not spend the jti; the success does', async () => {
    const pin = signed(member, 'PUT', `/spaces/${publicSpace}/pin`, {});
    const refused = await pin();
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('E_FORBIDDEN');
    expect((await member.post(`/spaces/${publicSpace}/join`, {})).status).toBe(200);
    const served = await pin();
    expect(served.status).toBe(200);
    expect(served.body.pinned).toBe(true);
    const replay = await pin();
    expect(replay.status).toBe(409);
    expect(replay.body).toEqual({ code: 'E_CONFLICT', message: 'Replayed request' });
  });

  it('a non-member writing to a private space gets the same 404 every time, never 409', async () => {
    const pin = signed(member, 'PUT', `/spaces/${privateSpace}/pin`, {});
    const first = await pin();
    const again = await pin();
    expect(first.status).toBe(404);
    expect(again.status).toBe(404);
    expect(again.text).toBe(first.text);
  });

  it('a 400 (invalid body) and a 409 (handle taken) do not spend the jti', async () => {
    const path = '/profile';
    const headers = member.headers('PATCH', path);
    const send = (body: object) => request(t.http).patch(path).set(headers).send(body);
    expect((await send({ handle: 'Not_Valid' })).status).toBe(400);
    expect((await send({ handle: 'release-owner' })).status).toBe(409);
    const served = await send({ bio: 'fixed' });
    expect(served.status).toBe(200);
    expect(served.body.bio).toBe('fixed');
    const replay = await send({ bio: 'again' });
    expect(replay.status).toBe(409);
    expect(replay.body.message).toBe('Replayed request');
    expect((await member.get('/v1/profile')).body.bio).toBe('fixed');
  });
});
