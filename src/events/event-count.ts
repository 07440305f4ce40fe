import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SpaceCounters } from '../spaces';

/**
 * Registers the count behind a space's `eventCountSummary` (design.md §12): its `public` and
 * `members` events, a recurring series once (one row per event).
 */
@Injectable()
export class EventCount implements OnModuleInit {
  constructor(
    private readonly counters: SpaceCounters,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    this.counters.register('eventCountSummary', async ({ id: spaceId }) => {
      const [{ n }]: { n: number }[] = await this.dataSource.query(
        `SELECT count(*)::int AS "n" FROM "events" WHERE "space_id" = $1 AND "visibility" IN ('public', 'members')`,
        [spaceId],
      );
      return n;
    });
  }
}
