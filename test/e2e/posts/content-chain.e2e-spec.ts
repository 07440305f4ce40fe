import { Actor } from '../../support/actors';
import { POST_SCHEMA } from '../../../src/posts/domain/post-document';
import {
  admit,
  bootSpaces,
  expectStatus,
  makePublic,
  newPost,
  newSpace,
  newTopic,
  person,
  SpacesTestApp,
} from './support';

interface Protocol {
  contentId: string;
  headOpCid: string;
}

describe('post content chains (api-spec.md card `protocol`, CONTENT-MODEL.md post/v1)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  let space: { id: string; did: string };
  let publicTopic: string;
  let membersTopic: string;

  beforeAll(async () => {
    t = await bootSpaces();
    [owner, member] = await Promise.all([person(t), person(t)]);
    space = await newSpace(owner, 'Chains');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    publicTopic = await newTopic(owner, space.id, 'Open', 'public');
    membersTopic = await newTopic(owner, space.id, 'Members', 'members');
  });

  afterAll(() => t?.close());

  const relayState = async (contentId: string) => {
    const response = await t.anonymous.get(`/relay/proof/v1/content/${contentId}`);
    expectStatus(response, 200);
    return response.body as { headCID: string; state: { isDeleted: boolean } };
  };
  const blob = async (contentId: string) => {
    const response = await t.anonymous.get(`/relay/content/${contentId}/blob`);
    expectStatus(response, 200);
    return response.body as Record<string, unknown>;
  };
  const cardOf = async (postId: string) => {
    const response = await t.anonymous.get(`/v1/spaces/${space.id}/posts`);
    return (response.body.items as { id: string; protocol?: Protocol }[]).find((item) => item.id === postId);
  };

  it('publishes a public post’s projection, follows edits, and retracts it when it stops being public', async () => {
    const post = await newPost(member, space.id, {
      topic: publicTopic,
      title: 'Chained',
      body: 'above<!--fold-->below',
    });
    const first = post.protocol as Protocol;
    expect(first).toEqual({ contentId: expect.any(String), headOpCid: expect.any(String) });
    expect((await relayState(first.contentId)).headCID).toBe(first.headOpCid);
    expect(await blob(first.contentId)).toEqual({
      $schema: POST_SCHEMA,
      format: 'long-post',
      publishedAt: post.publishedAt,
      title: 'Chained',
      body: 'above',
      credits: [{ did: member.did, role: 'author' }],
    });
    expect((await cardOf(post.id))?.protocol).toEqual(first);

    const path = `/v1/spaces/${space.id}/posts/${post.id}`;
    const edited = await member.patch(path, { body: 'edited' });
    expectStatus(edited, 200);
    expect(edited.body.protocol.contentId).toBe(first.contentId);
    expect(edited.body.protocol.headOpCid).not.toBe(first.headOpCid);
    expect((await blob(first.contentId)).body).toBe('edited');

    // format is fixed at genesis: dropping the title starts a new chain
    const short = await member.patch(path, { title: null });
    expect(short.body.protocol.contentId).not.toBe(first.contentId);
    expect((await relayState(first.contentId)).state.isDeleted).toBe(true);
    expect((await blob(short.body.protocol.contentId)).format).toBe('short-post');

    const moved = await member.patch(path, { topic: membersTopic });
    expect(moved.body).not.toHaveProperty('protocol');
    expect((await relayState(short.body.protocol.contentId)).state.isDeleted).toBe(true);

    const back = await member.patch(path, { topic: publicTopic });
    const again = back.body.protocol as Protocol;
    expect(again.contentId).not.toBe(short.body.protocol.contentId);
    expectStatus(await member.delete(path), 200);
    expect((await relayState(again.contentId)).state.isDeleted).toBe(true);
  });

  it('no chain for posts of non-public topics or spaces without a public profile', async () => {
    const hidden = await newPost(member, space.id, { topic: membersTopic, body: 'members only' });
    expect(hidden).not.toHaveProperty('protocol');
    const privateSpace = await newSpace(owner, 'Private');
    const topic = await newTopic(owner, privateSpace.id, 'Open', 'public');
    const post = await newPost(owner, privateSpace.id, { topic, body: 'private space' });
    expect(post).not.toHaveProperty('protocol');
  });

  it('follows admin changes: a topic or space that stops being public retracts its posts’ documents', async () => {
    const topic = await newTopic(owner, space.id, 'Turning', 'public');
    const post = await newPost(member, space.id, { topic, body: 'public for now' });
    const first = post.protocol as Protocol;
    expect((await relayState(first.contentId)).state.isDeleted).toBe(false);

    // members-only: retracted by the time the topic PUT answers
    expectStatus(
      await owner.put(`/spaces/${space.id}/topics/${topic}`, { name: 'Turning', access: 'members' }),
      200,
    );
    expect((await relayState(first.contentId)).state.isDeleted).toBe(true);
    const hidden = (await member.get(`/v1/spaces/${space.id}/posts/${post.id}`)).body;
    expect(hidden.state).toBe('eligible');
    expect(hidden.post).not.toHaveProperty('protocol');

    // public again: a new chain
    expectStatus(
      await owner.put(`/spaces/${space.id}/topics/${topic}`, { name: 'Turning', access: 'public' }),
      200,
    );
    const second = (await member.get(`/v1/spaces/${space.id}/posts/${post.id}`)).body.post
      .protocol as Protocol;
    expect(second.contentId).not.toBe(first.contentId);
    expect((await relayState(second.contentId)).state.isDeleted).toBe(false);

    // the space loses its public profile: retracted too
    const other = await newSpace(owner, 'Turning space');
    await makePublic(owner, other.id);
    const otherTopic = await newTopic(owner, other.id, 'Open', 'public');
    const otherPost = await newPost(owner, other.id, { topic: otherTopic, body: 'was public' });
    const chain = otherPost.protocol as Protocol;
    expectStatus(
      await owner.put(`/spaces/${other.id}/public-config`, { isPublic: false, joinMode: 'closed' }),
      200,
    );
    expect((await relayState(chain.contentId)).state.isDeleted).toBe(true);

    // a deleted public topic retracts as well
    const doomed = await newPost(member, space.id, { topic, body: 'topic goes away' });
    expectStatus(await owner.delete(`/spaces/${space.id}/topics/${topic}`), 204);
    expect((await relayState((doomed.protocol as Protocol).contentId)).state.isDeleted).toBe(true);
  });
});
