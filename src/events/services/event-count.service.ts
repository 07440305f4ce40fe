import { Injectable, OnModuleInit } from '@nestjs/common';
import { SpaceCountersService } from '../../spaces';
import { EventsRepository } from '../repositories/events.repository';

/**
 * Registers the count behind a space's `eventCountSummary` (design.md §12): its `public` and
 * `members` events, a recurring series once (one row per event).
 */
@Injectable()
export class EventCountService implements OnModuleInit {
  constructor(
    private readonly counters: SpaceCountersService,
    private readonly events: EventsRepository,
  ) {}

  onModuleInit(): void {
    this.counters.register('eventCountSummary', ({ id: spaceId }) => this.events.countOfSpace(spaceId));
  }
}
