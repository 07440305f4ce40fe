import type { Post } from '../entities/post.entity';
import { displayTitleOf, excerptOf } from './post-text';

/** The body-made text of a card (api-spec.md "Post card"); the same for every viewer. */
export interface CardText {
  excerpt: string | null;
  displayTitle: string | null;
}

/** What a write stores with the post: its card text, stamped with the write's `updatedAt`. */
export function cardTextColumns(
  title: string | null,
  body: string,
  updatedAt: Date,
): CardText & { cardTextAt: Date } {
  return { excerpt: excerptOf(body), displayTitle: displayTitleOf(title, body), cardTextAt: updatedAt };
}

/**
 * The card text of a read post: the stored one when it was computed from the current title and
 * body, else (a row an older release wrote, whose `body` the read then selects) computed from it.
 */
export function cardTextOf(post: Post): CardText {
  if (hasCurrentCardText(post)) return { excerpt: post.excerpt, displayTitle: post.displayTitle };
  return { excerpt: excerptOf(post.body), displayTitle: displayTitleOf(post.title, post.body) };
}

function hasCurrentCardText(post: Post): boolean {
  return post.cardTextAt !== null && post.cardTextAt.getTime() === post.updatedAt.getTime();
}
