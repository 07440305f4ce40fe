import { Actor } from '../../support/actors';
import { POST_SCHEMA } from '../../../src/posts/post-content-chain';
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
});
