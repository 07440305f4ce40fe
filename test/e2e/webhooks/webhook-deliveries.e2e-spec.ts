import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { refuseWrites } from '../../support/faults';
import { admit, makePublic, newSpace, promote } from '../memberships/support';
import { newPost, newTopic } from '../posts/support';
import { count, expectStatus, SpacesTestApp } from '../spaces/support';
import {
  bootWithReceivers,
  originPublicKeys,
  person,
  Receiver,
  Received,
  verifiesAsOrigin,
  verifiesWith,
} from './support';

interface Delivery {
  id: string;
  eventId: string;
  type: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  latencyMs: number | null;
}

/**
 * Deliveries (docs/decisions/0161…0165): committed events only, the public or member view, signed
 * per Standard Webhooks and checked by independent verifiers, retried on the specification's
 * schedule by an injected clock, disabled on 410 or after 5 days of failures (admins notified).
 */
describe('webhook deliveries', () => {
  let t: SpacesTestApp;
  let receiver: Receiver;
  let owner: Actor;
  let admin: Actor;
  let member: Actor;
  let space: { id: string };
  let publicTopic: string;
  let membersTopic: string;
  let originKeys: Buffer[];

  beforeAll(async () => {
    receiver = await new Receiver().start();
    t = await bootWithReceivers([receiver]);
    [owner, admin, member] = await Promise.all([person(t), person(t), person(t)]);
    space = await newSpace(owner, 'Delivered');
    await makePublic(owner, space.id);
    await admit(owner, space.id, admin);
    await promote(owner, space.id, admin);
    await admit(owner, space.id, member);
    publicTopic = await newTopic(owner, space.id, 'Open', 'public');
    membersTopic = await newTopic(owner, space.id, 'Inside', 'members');
    originKeys = await originPublicKeys(t);
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const base = () => `/spaces/${space.id}/webhooks`;

  async function subscribe(
    path: string,
    body: Record<string, unknown> = {},
  ): Promise<{ id: string; secret: string }> {
    const created = await owner.post(base(), { url: receiver.url(path), events: ['post.created'], ...body });
    expectStatus(created, 201);
    return created.body as { id: string; secret: string };
  }

  const at = (path: string) => () => receiver.received.filter((item) => item.path === path);
  const arrived = (path: string, n = 1) => eventually(at(path), (items) => items.length >= n);
  async function log(webhookId: string): Promise<Delivery[]> {
    const response = await owner.get(`${base()}/${webhookId}/deliveries`);
    expectStatus(response, 200);
    return response.body.items as Delivery[];
  }
  /** Moves the service's clock on and waits for the sweep to have settled what fell due. */
  async function advance(ms: number): Promise<void> {
    t.clock.offsetMs += ms;
  }

  it('a public post: post.created with the anonymous reader’s card, both signatures verified independently', async () => {
    const hook = await subscribe('/public');
    const members = await subscribe('/members', { includeMembersOnly: true });
    const post = await newPost(member, space.id, { topic: publicTopic, title: 'Hello', body: 'world' });
    const [received] = await arrived('/public');
    await arrived('/members');
    const payload = JSON.parse(received.body) as {
      type: string;
      timestamp: string;
      data: { space: unknown; post: Record<string, unknown> };
    };
    expect(payload.type).toBe('post.created');
    expect(Date.parse(payload.timestamp)).not.toBeNaN();
    expect(payload.data.space).toEqual({ id: space.id });
    expect(payload.data.post).toMatchObject({ id: post.id, title: 'Hello' });
    expect(payload.data.post).not.toHaveProperty('viewer');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(
      Math.abs(Number(received.headers['webhook-timestamp']) - t.clock.now().getTime() / 1000),
    ).toBeLessThan(30);
    expect(received.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+ v1a,[A-Za-z0-9+/=]+$/);
    expect(verifiesWith(hook.secret, received)).toBe(true);
    expect(verifiesWith(members.secret, received)).toBe(false);
    expect(verifiesAsOrigin(originKeys, received)).toBe(true);
    // A changed byte fails both.
    const tampered: Received = { ...received, body: received.body.replace('Hello', 'Hellp') };
    expect(verifiesWith(hook.secret, tampered)).toBe(false);
    expect(verifiesAsOrigin(originKeys, tampered)).toBe(false);

    const [logged] = await eventually(
      () => log(hook.id),
      (items) => items[0]?.status === 'succeeded',
    );
    expect(logged).toMatchObject({
      eventId: received.headers['webhook-id'],
      type: 'post.created',
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 204,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(logged.latencyMs).toEqual(expect.any(Number));
    for (const id of [hook.id, members.id]) expectStatus(await owner.delete(`${base()}/${id}`), 204);
  });

  it('a members-only post reaches only the member view; never a secret or signed URL', async () => {
    const hook = await subscribe('/public-2');
    const members = await subscribe('/members-2', {
      includeMembersOnly: true,
      events: ['post.created', 'member.joined'],
    });
    const post = await newPost(member, space.id, { topic: membersTopic, title: 'Inside', body: 'members' });
    const [received] = await arrived('/members-2');
    const payload = JSON.parse(received.body) as { data: { post: { id: string; title: string } } };
    expect(payload.data.post).toMatchObject({ id: post.id, title: 'Inside' });
    expect(received.body).not.toMatch(/whsec_|sig=/);
    expect(verifiesWith(members.secret, received)).toBe(true);
    // The same fan-out job decided both: the public subscription stored nothing.
    expect(await log(hook.id)).toEqual([]);
    expect(at('/public-2')()).toEqual([]);

    const joiner = await person(t);
    await admit(owner, space.id, joiner);
    const joined = await eventually(
      () => receiver.of('member.joined'),
      (items) => items.length > 0,
    );
    expect(JSON.parse(joined[0].body).data).toEqual({ space: { id: space.id }, member: { did: joiner.did } });
    for (const id of [hook.id, members.id]) expectStatus(await owner.delete(`${base()}/${id}`), 204);
  });

  it('a rolled-back write delivers nothing and records nothing', async () => {
    const hook = await subscribe('/rollback');
    const outboxBefore = await count(t.dataSource, 'job_outbox');
    const repair = await refuseWrites(t.dataSource, 'posts', 'INSERT');
    try {
      const refused = await member.post(`/v1/spaces/${space.id}/posts`, {
        topic: publicTopic,
        body: 'doomed',
      });
      expect(refused.status).toBe(500);
    } finally {
      await repair();
    }
    // A later committed post is delivered: the doomed one never is.
    await newPost(member, space.id, { topic: publicTopic, title: 'Kept', body: 'kept' });
    const received = await arrived('/rollback');
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0].body).data.post.title).toBe('Kept');
    expect(await count(t.dataSource, 'job_outbox')).toBeLessThanOrEqual(outboxBefore + 1);
    expect((await log(hook.id)).map((item) => item.type)).toEqual(['post.created']);
    expectStatus(await owner.delete(`${base()}/${hook.id}`), 204);
  });

  it('retries on the specification’s schedule (5 s, then 5 min) by the clock, the same webhook-id each time', async () => {
    const hook = await subscribe('/flaky');
    receiver.answers = [500, 503];
    await newPost(member, space.id, { topic: publicTopic, title: 'Flaky', body: 'x' });
    await arrived('/flaky');
    let [delivery] = await eventually(
      () => log(hook.id),
      (items) => items[0]?.attempts === 1,
    );
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastStatusCode: 500,
      lastError: 'answered 500',
    });
    const firstDue = Date.parse(delivery.nextAttemptAt!);
    expect(firstDue - t.clock.now().getTime()).toBeGreaterThan(3_000);
    expect(firstDue - t.clock.now().getTime()).toBeLessThanOrEqual(5_000);
    // Not before its time: the sweep leaves it.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(at('/flaky')()).toHaveLength(1);
    await advance(5_000);
    await arrived('/flaky', 2);
    [delivery] = await eventually(
      () => log(hook.id),
      (items) => items[0]?.attempts === 2,
    );
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: 503 });
    const secondPause = Date.parse(delivery.nextAttemptAt!) - t.clock.now().getTime();
    expect(secondPause).toBeGreaterThan(4 * 60_000);
    expect(secondPause).toBeLessThanOrEqual(5 * 60_000);
    await advance(5 * 60_000);
    await arrived('/flaky', 3);
    [delivery] = await eventually(
      () => log(hook.id),
      (items) => items[0]?.status === 'succeeded',
    );
    expect(delivery).toMatchObject({ attempts: 3, lastStatusCode: 204, nextAttemptAt: null });
    const ids = new Set(at('/flaky')().map((item) => item.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const item of at('/flaky')()) expect(verifiesWith(hook.secret, item)).toBe(true);

    // Redelivery: the same message again, from a first attempt.
    const redelivered = await owner.post(`${base()}/${hook.id}/deliveries/${delivery.id}/redeliver`, {});
    expectStatus(redelivered, 202);
    expect(redelivered.body).toMatchObject({ id: delivery.id, status: 'pending', attempts: 0 });
    const all = await arrived('/flaky', 4);
    expect(all[3].headers['webhook-id']).toBe(all[0].headers['webhook-id']);
    await eventually(
      () => log(hook.id),
      (items) => items[0]?.status === 'succeeded' && items[0]?.attempts === 1,
    );
    expectStatus(await owner.delete(`${base()}/${hook.id}`), 204);
  });

  it('webhook.test, and a rotated secret: both signatures for 24 hours, then only the new one', async () => {
    const hook = await subscribe('/rotating');
    const tested = await owner.post(`${base()}/${hook.id}/test`, {});
    expectStatus(tested, 202);
    expect(tested.body).toMatchObject({ type: 'webhook.test', status: 'pending', attempts: 0 });
    const [test] = await arrived('/rotating');
    expect(JSON.parse(test.body)).toMatchObject({ type: 'webhook.test', data: { webhook: { id: hook.id } } });
    expect(verifiesWith(hook.secret, test)).toBe(true);

    const rotated = await owner.post(`${base()}/${hook.id}/rotate-secret`, {});
    const secret = rotated.body.secret as string;
    await owner.post(`${base()}/${hook.id}/test`, {});
    const [, during] = await arrived('/rotating', 2);
    expect(
      (during.headers['webhook-signature'] as string).split(' ').map((entry) => entry.split(',')[0]),
    ).toEqual(['v1', 'v1', 'v1a']);
    expect(verifiesWith(secret, during)).toBe(true);
    expect(verifiesWith(hook.secret, during)).toBe(true);
    expect(verifiesAsOrigin(originKeys, during)).toBe(true);

    await advance(24 * 3600_000 + 1000);
    await owner.post(`${base()}/${hook.id}/test`, {});
    const [, , after] = await arrived('/rotating', 3);
    expect(verifiesWith(secret, after)).toBe(true);
    expect(verifiesWith(hook.secret, after)).toBe(false);
    expect((await owner.get(`${base()}/${hook.id}`)).body.previousSecretValidUntil).toBeNull();
    expectStatus(await owner.delete(`${base()}/${hook.id}`), 204);
  });

  it('a 410 disables the subscription at once', async () => {
    const hook = await subscribe('/gone');
    receiver.answers = [410];
    await owner.post(`${base()}/${hook.id}/test`, {});
    await arrived('/gone');
    const record = await eventually(
      async () =>
        (await owner.get(`${base()}/${hook.id}`)).body as { enabled: boolean; disabledReason: string },
      (body) => !body.enabled,
    );
    expect(record).toMatchObject({ enabled: false, disabledReason: 'gone' });
    expect((await log(hook.id))[0]).toMatchObject({ status: 'failed', lastStatusCode: 410 });
    // Disabled: no test, no redelivery, no more deliveries.
    expectStatus(await owner.post(`${base()}/${hook.id}/test`, {}), 409);
    await newPost(member, space.id, { topic: publicTopic, title: 'Unheard', body: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(at('/gone')()).toHaveLength(1);
    // The admins are told.
    const told = await eventually(
      async () => JSON.stringify((await admin.get('/notifications')).body),
      (text) => text.includes('notify.webhook.disabled'),
    );
    expect(told).toContain('its receiver answered 410 Gone');
    expectStatus(await owner.delete(`${base()}/${hook.id}`), 204);
  });

  it('failing for 5 days disables it and tells every admin (notify.webhook.disabled)', async () => {
    const hook = await subscribe('/down');
    receiver.fallback = 500;
    try {
      await owner.post(`${base()}/${hook.id}/test`, {});
      await eventually(
        () => log(hook.id),
        (items) => items[0]?.attempts === 1,
      );
      // Four days on: still failing, still enabled.
      await advance(4 * 24 * 3600_000);
      await owner.post(`${base()}/${hook.id}/test`, {});
      await arrived('/down', 2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await owner.get(`${base()}/${hook.id}`)).body.enabled).toBe(true);
      // Five days since the first failure and never a success: disabled.
      await advance(24 * 3600_000 + 1000);
      await owner.post(`${base()}/${hook.id}/test`, {});
      const record = await eventually(
        async () =>
          (await owner.get(`${base()}/${hook.id}`)).body as { enabled: boolean; disabledReason: string },
        (body) => !body.enabled,
      );
      expect(record.disabledReason).toBe('failing');
      expect((await log(hook.id)).every((item) => item.status === 'failed')).toBe(true);
      for (const who of [owner, admin]) {
        const text = await eventually(
          async () => JSON.stringify((await who.get('/notifications')).body),
          (body) => body.includes('its deliveries failed for 5 days'),
        );
        expect(text).toContain(hook.id);
        expect(text).not.toContain('/down');
      }
      // Members who are not admins are not told.
      expect(JSON.stringify((await member.get('/notifications')).body)).not.toContain(
        'notify.webhook.disabled',
      );
    } finally {
      receiver.fallback = 204;
    }
    expectStatus(await owner.delete(`${base()}/${hook.id}`), 204);
  });

  it('an admin disabling it fails its pending deliveries; re-enabling sends new ones', async () => {
    const hook = await subscribe('/paused');
    receiver.answers = [500];
    await owner.post(`${base()}/${hook.id}/test`, {});
    await arrived('/paused');
    await eventually(
      () => log(hook.id),
      (items) => items[0]?.attempts === 1,
    );
    expectStatus(await owner.patch(`${base()}/${hook.id}`, { enabled: false }), 200);
    expect((await log(hook.id))[0]).toMatchObject({
      status: 'failed',
      lastError: 'the subscription was disabled',
      nextAttemptAt: null,
    });
    await advance(5_000);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(at('/paused')()).toHaveLength(1);
    expectStatus(await owner.patch(`${base()}/${hook.id}`, { enabled: true }), 200);
    await owner.post(`${base()}/${hook.id}/test`, {});
    await arrived('/paused', 2);
    expectStatus(await owner.delete(`${base()}/${hook.id}`), 204);
  });
});
