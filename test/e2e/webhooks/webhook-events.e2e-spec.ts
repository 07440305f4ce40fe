import { Actor } from '../../support/actors';
import { eventually } from '../../support/eventually';
import { admit, makePublic, newSpace } from '../memberships/support';
import { timedEvent } from '../events/support';
import { newPost, newTopic } from '../posts/support';
import { productBody } from '../store/support';
import { expectStatus, SpacesTestApp } from '../spaces/support';
import { bootWithReceivers, person, Receiver } from './support';

type Data = Record<string, Record<string, unknown> & { id: string }>;
const parsed = (body: string) => JSON.parse(body) as { type: string; data: Data };

/**
 * The owning modules' events each reach a subscription (docs/decisions/0161-webhook-events-and-payloads.md):
 * post updated and deleted, comment created and deleted, member left and banned, applications,
 * calendar events, store publications; what the anonymous reader cannot see stays with the member view.
 */
describe('webhook events from every owning module', () => {
  let t: SpacesTestApp;
  let receiver: Receiver;
  let owner: Actor;
  let member: Actor;
  let space: { id: string };
  let topic: string;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    t = await bootWithReceivers([receiver]);
    [owner, member] = await Promise.all([person(t), person(t)]);
    space = await newSpace(owner, 'Eventful');
    await makePublic(owner, space.id, 'application');
    await admit(owner, space.id, member);
    topic = await newTopic(owner, space.id, 'Open', 'public');
    const all = [
      'post.created',
      'post.updated',
      'post.deleted',
      'comment.created',
      'comment.deleted',
      'member.joined',
      'member.left',
      'member.banned',
      'application.submitted',
      'application.approved',
      'application.rejected',
      'event.created',
      'event.updated',
      'event.canceled',
      'product.published',
      'release.published',
    ];
    expectStatus(
      await owner.post(`/spaces/${space.id}/webhooks`, {
        url: receiver.url('/members'),
        events: all,
        includeMembersOnly: true,
      }),
      201,
    );
    expectStatus(
      await owner.post(`/spaces/${space.id}/webhooks`, {
        url: receiver.url('/public'),
        events: all.filter((type) => !/^(member|application)\./.test(type)),
      }),
      201,
    );
  });

  afterAll(async () => {
    await t?.close();
    await receiver?.stop();
  });

  const typesAt = (path: string) =>
    receiver.received.filter((item) => item.path === path).map((item) => parsed(item.body).type);
  const arrivedAt = (path: string, type: string) =>
    eventually(
      () => receiver.received.filter((item) => item.path === path && parsed(item.body).type === type),
      (items) => items.length > 0,
    );

  it('posts and comments: updated, deleted, comment created and deleted', async () => {
    const post = await newPost(member, space.id, { topic, title: 'First', body: 'one' });
    expectStatus(await member.patch(`/v1/spaces/${space.id}/posts/${post.id}`, { title: 'Changed' }), 200);
    const [updated] = await arrivedAt('/public', 'post.updated');
    expect(parsed(updated.body).data.post).toMatchObject({ id: post.id, title: 'Changed' });
    const comment = await member.post(`/v1/spaces/${space.id}/posts/${post.id}/comments`, { body: 'hi' });
    expectStatus(comment, 201);
    const [commented] = await arrivedAt('/public', 'comment.created');
    expect(parsed(commented.body).data).toMatchObject({
      comment: { id: comment.body.id },
      post: { id: post.id },
    });
    expectStatus(await member.delete(`/v1/spaces/${space.id}/comments/${comment.body.id as string}`), 200);
    await arrivedAt('/public', 'comment.deleted');
    expectStatus(await member.delete(`/v1/spaces/${space.id}/posts/${post.id}`), 200);
    const [deleted] = await arrivedAt('/public', 'post.deleted');
    expect(parsed(deleted.body).data).toEqual({ space: { id: space.id }, post: { id: post.id } });
  });

  it('members (joined, banned, left) and applications (submitted, approved, rejected) reach the member view only', async () => {
    const applicant = await person(t);
    const applied = await applicant.post(`/spaces/${space.id}/applications`, { responses: [] });
    expectStatus(applied, 201);
    const [submitted] = await arrivedAt('/members', 'application.submitted');
    expect(parsed(submitted.body).data.applicant).toEqual({ did: applicant.did });
    const applicationId = parsed(submitted.body).data.application.id as string;
    expect(applicationId).toBe(applied.body.applicationId);
    expectStatus(await owner.post(`/applications/${applicationId}/approve`, { applicationId }), 200);
    await arrivedAt('/members', 'application.approved');
    await arrivedAt('/members', 'member.joined');
    expectStatus(await owner.post(`/spaces/${space.id}/members/${applicant.did}/bans`, {}), 200);
    await arrivedAt('/members', 'member.banned');
    const refused = await person(t);
    const second = await refused.post(`/spaces/${space.id}/applications`, { responses: [] });
    expectStatus(second, 201);
    const secondId = second.body.applicationId as string;
    expectStatus(await owner.post(`/applications/${secondId}/reject`, { applicationId: secondId }), 200);
    const [rejected] = await arrivedAt('/members', 'application.rejected');
    expect(parsed(rejected.body).data).toMatchObject({
      application: { id: secondId },
      applicant: { did: refused.did },
    });
    expectStatus(await member.delete(`/spaces/${space.id}/membership`), 204);
    const [left] = await arrivedAt('/members', 'member.left');
    expect(parsed(left.body).data).toEqual({ space: { id: space.id }, member: { did: member.did } });
    expect(typesAt('/public').filter((type) => /^(member|application)\./.test(type))).toEqual([]);
  });

  it('calendar events (a members-only one for the member view only) and store publications', async () => {
    const created = await owner.post(`/spaces/${space.id}/events`, timedEvent());
    expectStatus(created, 201);
    const [announced] = await arrivedAt('/public', 'event.created');
    expect(parsed(announced.body).data.event).toEqual({ id: created.body.id, visibility: 'public' });
    expectStatus(
      await owner.put(
        `/spaces/${space.id}/events/${created.body.id as string}`,
        timedEvent({ title: 'Moved' }),
      ),
      200,
    );
    await arrivedAt('/public', 'event.updated');
    expectStatus(await owner.delete(`/spaces/${space.id}/events/${created.body.id as string}`), 204);
    await arrivedAt('/public', 'event.canceled');
    const inner = await owner.post(`/spaces/${space.id}/events`, timedEvent({ visibility: 'members' }));
    expectStatus(inner, 201);
    await eventually(
      () => receiver.received.filter((item) => item.body.includes(inner.body.id as string)),
      (items) => items.length > 0,
    );
    expect(
      receiver.received.filter(
        (item) => item.path === '/public' && item.body.includes(inner.body.id as string),
      ),
    ).toEqual([]);

    const product = await owner.post(`/spaces/${space.id}/products`, productBody());
    expectStatus(product, 201);
    const [published] = await arrivedAt('/public', 'product.published');
    expect(parsed(published.body).data.product).toEqual({ id: product.body.id });
    const release = await owner.post(`/spaces/${space.id}/releases`, { title: 'Album', published: true });
    expectStatus(release, 201);
    await arrivedAt('/public', 'release.published');
  });
});
