import { Injectable, OnModuleInit } from '@nestjs/common';
import { SpaceCounters } from '../spaces';
import { PostCounts } from './post-counts';

/**
 * Registers the count behind a space's `privatePostCountSummary` (design.md §8): its live posts of
 * live topics whose access is not `public` (the posts the public projection does not show), summed
 * from the per-topic counters, so a topic's access change needs no recount.
 */
@Injectable()
export class PrivatePostCount implements OnModuleInit {
  constructor(
    private readonly counters: SpaceCounters,
    private readonly counts: PostCounts,
  ) {}

  onModuleInit(): void {
    this.counters.register('privatePostCountSummary', (space) => this.counts.privateInSpace(space.id));
  }
}
