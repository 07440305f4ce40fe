import type { EntityManager } from 'typeorm';
import { AuthorRecord, authorRecordOf } from '../users';
import { Post } from './entities/post.entity';
import { countChange } from './post-counts';

/** The author record a post insert read, and the avatar it names (resolved with the post's media). */
export interface InsertedAuthor {
  author: AuthorRecord;
  avatarId: string | null;
}

/**
 * Inserts a new post, counts it in its topic and reads its author's record (the users module's
 * view `author_records`), in one statement on the write's `manager`; the author record is the one
 * the answer carries.
 */
export async function insertPost(manager: EntityManager, post: Post): Promise<InsertedAuthor> {
  const [row, rowParameters] = manager
    .createQueryBuilder()
    .insert()
    .into(Post)
    .values(post)
    .updateEntity(false)
    .getQueryAndParameters();
  const [count, countParameters] = countChange(post, +1, rowParameters.length);
  const parameters = [...rowParameters, ...countParameters, post.authorDid];
  const [account] = await manager.query<
    { handle: string | null; displayName: string | null; avatarId: string | null }[]
  >(
    `WITH "written" AS (${row}), "counted" AS (${count})
     SELECT "handle", "display_name" AS "displayName", "avatar_id" AS "avatarId" FROM "author_records" WHERE "did" = $${parameters.length}`,
    parameters,
  );
  // The avatar's URL is the media module's: the answer resolves it with the post's own media.
  return { author: authorRecordOf(post.authorDid, account), avatarId: account?.avatarId ?? null };
}
