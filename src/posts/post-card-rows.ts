import { SelectQueryBuilder } from 'typeorm';
import { Post } from './entities/post.entity';

/** What a listing reads of a post: everything a card shows, never the body, attachments or chain bookkeeping. */
const CARD_COLUMNS: (keyof Post)[] = [
  'id',
  'spaceId',
  'topicId',
  'authorDid',
  'title',
  'excerpt',
  'displayTitle',
  'cardTextAt',
  'slug',
  'upvoteCount',
  'commentCount',
  'isPinned',
  'publishedAt',
  'updatedAt',
  'contentId',
  'headCid',
];

/** The body, only of a row whose stored card text is not current (written by an older release). */
const STALE_BODY = `CASE WHEN "post"."card_text_at" IS NOT DISTINCT FROM "post"."updated_at" THEN NULL ELSE "post"."body" END`;

/** Posts aliased `post`, selecting the card columns (read the rows with `readCardRows`). */
export function selectCardColumns(builder: SelectQueryBuilder<Post>): SelectQueryBuilder<Post> {
  return builder.select(CARD_COLUMNS.map((column) => `post.${column}`)).addSelect(STALE_BODY, 'stale_body');
}

/** The rows of a card query; a row with stale card text carries its body (see `cardTextOf`). */
export async function readCardRows(query: SelectQueryBuilder<Post>): Promise<Post[]> {
  const { entities, raw } = await query.getRawAndEntities<{ post_id: string; stale_body: string | null }>();
  const staleBodies = new Map(
    raw.filter((row) => row.stale_body !== null).map((row) => [row.post_id, row.stale_body as string]),
  );
  return entities.map((post) => {
    const body = staleBodies.get(post.id);
    return body === undefined ? post : Object.assign(post, { body });
  });
}
