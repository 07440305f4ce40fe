import type { StoredHead } from '../../protocol';
import type { SpaceView, TopicView } from '../../spaces';
import type { Post } from '../entities/post.entity';
import { applyFold } from './post-text';

export const POST_SCHEMA = 'https://schemas.dfos.com/post/v1';

/** A post's new chain could not be stored with it (the relay refused it or failed). */
export class ChainNotStored extends Error {
  override readonly name = 'ChainNotStored';

  constructor(override readonly cause: unknown) {
    super(`the post's content chain was not stored: ${String(cause)}`);
  }
}

/** The chain position columns of a post. */
export function headColumns(head: StoredHead): Pick<Post, 'contentId' | 'headCid' | 'documentCid'> {
  return { contentId: head.contentId, headCid: head.headCid, documentCid: head.documentCid };
}

/** Whether a live post in this topic of this space is public (has a content chain). */
export function isPublicPlace(
  space: Pick<SpaceView, 'isPublic'>,
  topic: Pick<TopicView, 'accessKind'>,
): boolean {
  return space.isPublic && topic.accessKind === 'public';
}

/**
 * A post's text as its post/v1 document holds it: the title when it has one, the above-fold body
 * (also what a space import checks an archive's posts against, docs/decisions/0235).
 */
export function postDocumentText(title: string | null, body: string): { title?: string; body: string } {
  return { ...(title ? { title } : {}), body: applyFold(body).body };
}

/** The public projection of a post as a post/v1 document. */
export function postDocument(
  post: Pick<Post, 'title' | 'body' | 'publishedAt' | 'authorDid'>,
): Record<string, unknown> {
  const text = postDocumentText(post.title, post.body);
  return {
    $schema: POST_SCHEMA,
    format: post.title ? 'long-post' : 'short-post',
    publishedAt: post.publishedAt.toISOString(),
    ...text,
    credits: [{ did: post.authorDid, role: 'author' }],
  };
}
