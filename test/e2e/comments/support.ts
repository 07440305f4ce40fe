import { Response } from 'supertest';
import { formatEntityId, newUuid, parseEntityId } from '../../../src/common/ids/entity-id';
import { Actor } from '../../support/actors';
import { admit, makePublic, newSpace, person } from '../memberships/support';
import { bootSpaces, expectInvalid, expectNotFound, expectStatus, SpacesTestApp } from '../spaces/support';

export { admit, bootSpaces, expectInvalid, expectNotFound, expectStatus, makePublic, newSpace, person };
export type { SpacesTestApp };

export type TopicAccess = 'public' | 'signedIn' | 'members' | { groups: string[] };

export async function newTopic(
  owner: Actor,
  spaceId: string,
  access: TopicAccess = 'public',
): Promise<string> {
  const response = await owner.post(`/spaces/${spaceId}/topics`, {
    name: `Topic ${newUuid().slice(-6)}`,
    access,
  });
  expectStatus(response, 201);
  return response.body.id as string;
}

/**
 * A post row written straight to the database (the posts routes are built separately): answers
 * its `post_…` id.
 */
export async function insertPost(
  t: SpacesTestApp,
  spaceId: string,
  topicId: string,
  authorDid: string,
  options: { deleted?: boolean } = {},
): Promise<string> {
  const id = newUuid();
  const now = t.clock.now();
  await t.dataSource.query(
    `INSERT INTO posts (id, space_id, topic_id, author_did, title, body, slug, published_at, updated_at, deleted_at)
     VALUES ($1, $2, $3, $4, NULL, 'A post', 'a-post', $5, $5, $6)`,
    [
      id,
      parseEntityId('space', spaceId),
      parseEntityId('topic', topicId),
      authorDid,
      now,
      options.deleted ? now : null,
    ],
  );
  return formatEntityId('post', id);
}

export async function commentCountOf(t: SpacesTestApp, postId: string): Promise<number> {
  const rows = await t.dataSource.query('SELECT comment_count FROM posts WHERE id = $1', [
    parseEntityId('post', postId),
  ]);
  return Number(rows[0].comment_count);
}

export async function commentRows(t: SpacesTestApp): Promise<number> {
  return Number((await t.dataSource.query('SELECT count(*)::int AS n FROM comments'))[0].n);
}

export interface CommentBody {
  id: string;
  postId: string;
  parentCommentId?: string;
  author: { did: string; displayName?: string; username?: string; avatarUrl?: string };
  body: string | null;
  attachments: unknown[];
  publishedAt: string;
  activityAt?: string;
  upvoteCount: number;
  replyCount: number;
  viewer: { upvoted: boolean };
}

export interface CommentPage {
  items: CommentBody[];
  nextCursor: string | null;
  previousCursor?: string | null;
}

/** Writes a comment and answers it (201 expected). */
export async function comment(
  author: Actor,
  spaceId: string,
  postId: string,
  body: Record<string, unknown> = { body: 'Nice' },
): Promise<CommentBody> {
  const response: Response = await author.post(`/v1/spaces/${spaceId}/posts/${postId}/comments`, body);
  expectStatus(response, 201);
  return response.body as CommentBody;
}
