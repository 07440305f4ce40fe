import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SpaceCountersService } from '../../spaces';
import { CountedPost, PostCountsRepository } from '../repositories/post-counts.repository';

export type { CountedPost };

/**
 * The live posts per topic and format (`post_topic_counts`), kept inside the transaction of every
 * post write: create adds, delete takes away, a move or a format change does both. Reads sum the
 * rows of a handful of topics, never the posts. Registers the count behind a space's
 * `privatePostCountSummary` (design.md §8): its live posts of live topics whose access is not
 * `public`, summed from the per-topic counters, so a topic's access change needs no recount.
 */
@Injectable()
export class PostCountsService implements OnModuleInit {
  constructor(
    private readonly counts: PostCountsRepository,
    private readonly counters: SpaceCountersService,
  ) {}

  onModuleInit(): void {
    this.counters.register('privatePostCountSummary', (space) => this.counts.privateInSpace(space.id));
  }

  /** Counts `post` in (+1) or out (-1) of its topic, on the write's `manager`. */
  add(manager: EntityManager, post: CountedPost, delta: 1 | -1): Promise<void> {
    return this.counts.add(post, delta, manager);
  }

  /** A post moved between topics or changed format: out of where it was, into where it is. */
  async move(manager: EntityManager, before: CountedPost, after: CountedPost): Promise<void> {
    if (before.topicId === after.topicId && (before.title === null) === (after.title === null)) return;
    // Rows are locked in topic order, so two moves in opposite directions cannot deadlock.
    const changes: [CountedPost, 1 | -1][] = [
      [before, -1],
      [after, +1],
    ];
    changes.sort(([a], [b]) => a.topicId.localeCompare(b.topicId));
    for (const [post, delta] of changes) await this.add(manager, post, delta);
  }

  /** Live posts of these topics, of one format or both. */
  async inTopics(topicIds: string[], format?: 'short-post' | 'long-post'): Promise<number> {
    if (topicIds.length === 0) return 0;
    return this.counts.inTopics(
      topicIds,
      format === 'short-post' ? 'short' : format === 'long-post' ? 'long' : 'all',
    );
  }

  /**
   * Live posts of these topics published inside a date range (of one format or both), or null when
   * the range holds more than `cap` posts: at most `cap + 1` entries of `idx_posts_topic_recent`
   * are read, whatever the range's size.
   */
  async inRange(
    topicIds: string[],
    range: { after?: Date; before?: Date; format?: 'short-post' | 'long-post' },
    cap: number,
  ): Promise<number | null> {
    if (topicIds.length === 0) return 0;
    const row = await this.counts.inRange(
      topicIds,
      { after: range.after ?? null, before: range.before ?? null, byFormat: range.format !== undefined },
      cap + 1,
    );
    if (row.read > cap) return null;
    if (range.format === 'long-post') return row.long;
    if (range.format === 'short-post') return row.read - row.long;
    return row.read;
  }
}
