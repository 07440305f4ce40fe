import { Injectable, OnModuleInit } from '@nestjs/common';
import { SpaceCountersService } from '../../spaces';
import { MediaLookupService } from './media-lookup.service';

/**
 * Registers the count behind a space's `mediaUploadCountSummary` (design.md §8; api-spec.md "all
 * uploads, including publicly served avatar and header"): its ready uploads, and its avatar and
 * header when they are legacy uploads of no space.
 */
@Injectable()
export class MediaUploadCountService implements OnModuleInit {
  constructor(
    private readonly counters: SpaceCountersService,
    private readonly media: MediaLookupService,
  ) {}

  onModuleInit(): void {
    this.counters.register('mediaUploadCountSummary', (space) =>
      this.media.countOfSpace(space.id, [space.avatarMediaId, space.headerMediaId]),
    );
  }
}
