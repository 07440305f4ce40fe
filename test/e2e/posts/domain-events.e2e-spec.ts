import { parseEntityId } from '../../../src/common/ids/entity-id';
import { CommentAdded, CommentUpvoted } from '../../../src/comments/events/comment.events';
import { DomainEvents } from '../../../src/infrastructure/events/domain-events.service';
import { PostPublished, PostUpvoted } from '../../../src/posts/events/post.events';
import { Actor } from '../../support/actors';
import { comment } from '../comments/support';
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

/**
 * The posts and comments modules own their domain events (docs/architecture.md): each is delivered
 * to subscribers after its write commits, once per change (a repeated upvote changes nothing).
 */
describe('post and comment domain events (e2e)', () => {
  let t: SpacesTestApp;
  let owner: Actor;
  let member: Actor;
  const seen: object[] = [];

  beforeAll(async () => {
    t = await bootSpaces();
    const events = t.app.get(DomainEvents);
    for (const type of [PostPublished, PostUpvoted, CommentAdded, CommentUpvoted]) {
      events.afterCommit(type, async (event: object) => {
        seen.push(event);
      });
    }
    [owner, member] = await Promise.all([person(t), person(t)]);
  });

  afterAll(() => t?.close());

  it('announces a published post, a new upvote once, a comment and its upvote', async () => {
    const space = await newSpace(owner, 'Eventful');
    await makePublic(owner, space.id);
    await admit(owner, space.id, member);
    const topic = await newTopic(owner, space.id, 'General', 'public');
    const spaceId = parseEntityId('space', space.id)!;

    const post = await newPost(owner, space.id, { topic, body: 'hello' });
    const postId = parseEntityId('post', post.id)!;
    const upvote = `/v1/spaces/${space.id}/posts/${post.id}/upvote`;
    expectStatus(await member.put(upvote, {}), 200);
    expectStatus(await member.put(upvote, {}), 200);
    const reply = await comment(member, space.id, post.id, { body: 'hi' });
    const commentId = parseEntityId('comment', reply.id)!;
    expectStatus(await owner.put(`/v1/spaces/${space.id}/comments/${reply.id}/upvote`, {}), 200);

    expect(seen).toEqual([
      new PostPublished(spaceId, postId, parseEntityId('topic', topic)!, owner.did),
      new PostUpvoted(spaceId, postId, owner.did, member.did),
      new CommentAdded(spaceId, postId, commentId, member.did, owner.did, null),
      new CommentUpvoted(spaceId, postId, commentId, member.did, owner.did),
    ]);
  });
});
