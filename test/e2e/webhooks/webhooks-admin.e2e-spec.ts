import request from 'supertest';
import { DataSource } from 'typeorm';
import { schemaDrift } from '../../../src/infrastructure/database/schema-drift';
import { Actor } from '../../support/actors';
import { admit, makePublic, newSpace } from '../memberships/support';
import { count, expectInvalid, expectNotFound, expectStatus, SpacesTestApp } from '../spaces/support';
import { bootWithReceivers, person, Receiver } from './support';

/** The admin routes of a space's webhook subscriptions (docs/decisions/0160-webhook-subscriptions.md). */
describe('webhook subscriptions (admin routes)', () => {
  let t: SpacesTestApp;
  let receiver: Receiver;
  let owner: Actor;
  let member: Actor;
  let stranger: Actor;
  let space: { id: string };
  let otherSpace: { id: string };

  beforeAll(async () => {
    receiver = await new Receiver().start();
    t = await bootWithReceivers([receiver], { WEBHOOKS_PER_SPACE: '3' });
    [owner, member, stranger] = await Promise.all([person(t), person(t), person(t)]);
    space = await newSpace(owner, 'Hooked');
    await admit(owner, space.id, member);
    otherSpace = await newSpace(owner, 'Other');
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const base = () => `/spaces/${space.id}/webhooks`;

  it('POST answers 201 with the record and a whsec_ secret of 24 random bytes, shown once', async () => {
    const created = await owner.post(base(), {
      url: receiver.url(),
      events: ['post.created', 'comment.created'],
      description: 'chat bridge',
    });
    expectStatus(created, 201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^webhook_[0-9a-f]{32}$/),
      url: receiver.url(),
      events: ['post.created', 'comment.created'],
      description: 'chat bridge',
      includeMembersOnly: false,
      enabled: true,
      disabledReason: null,
      previousSecretValidUntil: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    expect(Buffer.from((created.body.secret as string).slice(6), 'base64')).toHaveLength(24);
    const one = await owner.get(`${base()}/${created.body.id as string}`);
    expectStatus(one, 200);
    expect(one.body).not.toHaveProperty('secret');
    const { secret: _secret, ...record } = created.body as Record<string, unknown>;
    expect(one.body).toEqual(record);
    expect(JSON.stringify((await owner.get(base())).body)).not.toContain('whsec_');
    await owner.delete(`${base()}/${created.body.id as string}`);
  });

  it('GET lists newest first in keyset pages; PATCH changes; DELETE removes with its log', async () => {
    const ids: string[] = [];
    for (const description of ['a', 'b', 'c']) {
      const created = await owner.post(base(), {
        url: receiver.url(),
        events: ['post.created'],
        description,
      });
      expectStatus(created, 201);
      ids.unshift(created.body.id as string);
    }
    const first = await owner.get(`${base()}?limit=2`);
    expectStatus(first, 200);
    expect(first.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
    const second = await owner.get(
      `${base()}?limit=2&after=${encodeURIComponent(first.body.nextCursor as string)}`,
    );
    expect(second.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(2));
    expect(second.body.nextCursor).toBeNull();
    expectInvalid(await owner.get(`${base()}?limit=0`));

    // A fourth is past this suite's WEBHOOKS_PER_SPACE (3): 409, nothing stored.
    const over = await owner.post(base(), { url: receiver.url(), events: ['post.created'] });
    expectStatus(over, 409);
    expect(over.body.code).toBe('E_CONFLICT');
    expect(await count(t.dataSource, 'webhooks')).toBe(3);

    const patched = await owner.patch(`${base()}/${ids[0]}`, {
      url: 'https://hooks.example.com/x',
      events: ['post.deleted'],
      description: null,
      enabled: false,
    });
    expectStatus(patched, 200);
    expect(patched.body).toMatchObject({
      url: 'https://hooks.example.com/x',
      events: ['post.deleted'],
      description: null,
      enabled: false,
      disabledReason: 'admin',
    });
    const again = await owner.patch(`${base()}/${ids[0]}`, { enabled: true });
    expect(again.body).toMatchObject({ enabled: true, disabledReason: null, description: null });

    for (const id of ids) expectStatus(await owner.delete(`${base()}/${id}`), 204);
    expectNotFound(await owner.get(`${base()}/${ids[0]}`));
    expect(await count(t.dataSource, 'webhooks')).toBe(0);
  });

  it('validation: 400 with details and nothing stored', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ url: 'ftp://example.com/x', events: ['post.created'] }, 'url'],
      [{ url: 'not a url', events: ['post.created'] }, 'url'],
      [{ url: `https://example.com/${'a'.repeat(2048)}`, events: ['post.created'] }, 'url'],
      [{ url: 'https://example.com/x', events: [] }, 'events'],
      [{ url: 'https://example.com/x', events: ['post.exploded'] }, 'events'],
      [{ url: 'https://example.com/x', events: ['post.created', 'post.created'] }, 'events'],
      [
        { url: 'https://example.com/x', events: ['post.created'], description: 'd'.repeat(501) },
        'description',
      ],
      [
        { url: 'https://example.com/x', events: ['post.created'], includeMembersOnly: 'yes' },
        'includeMembersOnly',
      ],
      [{ url: 'https://example.com/x', events: ['member.joined'] }, 'events'],
      [{ url: 'http://10.0.0.7/hook', events: ['post.created'] }, 'url'],
      [{ url: 'http://localhost:9/hook', events: ['post.created'] }, 'url'],
      [{ url: 'http://[::1]:9/hook', events: ['post.created'] }, 'url'],
      [{ url: 'https://example.com/x', events: ['post.created'], secret: 'mine' }, 'secret'],
    ];
    for (const [body, path] of bad) expectInvalid(await owner.post(base(), body), path);
    expect(await count(t.dataSource, 'webhooks')).toBe(0);
    // Members' events with the member view are fine.
    const members = await owner.post(base(), {
      url: 'https://example.com/x',
      events: ['member.joined', 'application.submitted'],
      includeMembersOnly: true,
    });
    expectStatus(members, 201);
    expectInvalid(
      await owner.patch(`${base()}/${members.body.id as string}`, { includeMembersOnly: false }),
      'events',
    );
    expectInvalid(await owner.patch(`${base()}/${members.body.id as string}`, { enabled: 'no' }), 'enabled');
    expectStatus(await owner.delete(`${base()}/${members.body.id as string}`), 204);
  });

  it('admins only: 401 unsigned, 403 a member, the one 404 a stranger of a private space, another space’s webhook, a malformed id', async () => {
    const created = await owner.post(base(), { url: receiver.url(), events: ['post.created'] });
    const id = created.body.id as string;
    const routes: [string, string, unknown?][] = [
      ['POST', base(), { url: receiver.url(), events: ['post.created'] }],
      ['GET', base()],
      ['GET', `${base()}/${id}`],
      ['PATCH', `${base()}/${id}`, { enabled: false }],
      ['DELETE', `${base()}/${id}`],
      ['POST', `${base()}/${id}/rotate-secret`, {}],
      ['POST', `${base()}/${id}/test`, {}],
      ['GET', `${base()}/${id}/deliveries`],
      ['POST', `${base()}/${id}/deliveries/delivery_0196f0a2c4d87e3f9b1a5c6d7e8f9012/redeliver`, {}],
    ];
    for (const [method, path, body] of routes) {
      const agent = request(t.http);
      const call = agent[method.toLowerCase() as 'get'].bind(agent);
      const unsigned = await call(path).send(body as object);
      expect([method, path, unsigned.status]).toEqual([method, path, 401]);
      const asMember = await member.send(method as 'GET', path, body);
      expect([method, path, asMember.status, asMember.body.code]).toEqual([method, path, 403, 'E_FORBIDDEN']);
      expectNotFound(await stranger.send(method as 'GET', path, body));
    }
    // Another space of the same admin does not reach this space's subscription.
    const elsewhere = `/spaces/${otherSpace.id}/webhooks/${id}`;
    expectNotFound(await owner.get(elsewhere));
    expectNotFound(await owner.patch(elsewhere, { enabled: false }));
    expectNotFound(await owner.delete(elsewhere));
    expectNotFound(await owner.post(`${elsewhere}/rotate-secret`, {}));
    expectNotFound(await owner.get(`${elsewhere}/deliveries`));
    expectNotFound(await owner.get(`${base()}/webhook_nothex`));
    expectNotFound(await owner.post(`${base()}/${id}/deliveries/delivery_bad/redeliver`, {}));
    expectNotFound(
      await owner.post(`${base()}/${id}/deliveries/delivery_0196f0a2c4d87e3f9b1a5c6d7e8f9012/redeliver`, {}),
    );
    // A public space: a stranger is told 403, as §9 says for anyone who reaches the space.
    await makePublic(owner, space.id);
    expectStatus(await stranger.get(base()), 403);
    expectStatus(await owner.delete(`${base()}/${id}`), 204);
  });

  it('rotate-secret answers a new secret and until when the previous one still signs', async () => {
    const created = await owner.post(base(), { url: receiver.url(), events: ['post.created'] });
    const id = created.body.id as string;
    const rotated = await owner.post(`${base()}/${id}/rotate-secret`, {});
    expectStatus(rotated, 200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(
      Date.parse(rotated.body.previousSecretValidUntil as string) - t.clock.now().getTime(),
    ).toBeGreaterThan(23.9 * 3600_000);
    const shown = await owner.get(`${base()}/${id}`);
    expect(shown.body.previousSecretValidUntil).toBe(rotated.body.previousSecretValidUntil);
    expectStatus(await owner.delete(`${base()}/${id}`), 204);
  });

  it('has a migration that creates exactly what its entities declare', async () => {
    expect((await schemaDrift(t.app.get(DataSource))).up).toEqual([]);
  });
});
