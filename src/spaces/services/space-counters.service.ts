import { Injectable } from '@nestjs/common';
import { wordedSummary } from '../../common/summaries/worded-summary';
import type { SpaceView } from '../domain/space-views';

/** What a space's single fetch may summarize (api-spec.md "Space (single fetch)"), and its noun. */
const COUNTED = {
  privatePostCountSummary: 'private posts',
  chatMessageCountSummary: 'chat messages',
  eventCountSummary: 'events',
  mediaUploadCountSummary: 'media uploads',
} as const;

export type CountSummaryField = keyof typeof COUNTED;
export type CountSummaries = Partial<Record<CountSummaryField, string>>;
/**
 * The exact count behind a summary, for one space (the record already read: a count that needs
 * more of the space than its id reads it there, not again); never shown, only worded.
 */
export type SpaceCount = (space: SpaceView) => Promise<number>;

/**
 * The worded counts of a space's single fetch (design.md §8). The modules that own the counted
 * things register a count here (posts: private posts; events; media); a field whose count nobody
 * registered is absent, except `privatePostCountSummary`: until posts exist a space has none, and
 * api-spec.md wants that said ("no private posts").
 */
@Injectable()
export class SpaceCountersService {
  private readonly counts = new Map<CountSummaryField, SpaceCount>();

  register(field: CountSummaryField, count: SpaceCount): void {
    this.counts.set(field, count);
  }

  async summaries(space: SpaceView): Promise<CountSummaries> {
    const summaries: CountSummaries = {};
    for (const field of Object.keys(COUNTED) as CountSummaryField[]) {
      const count = this.counts.get(field) ?? (field === 'privatePostCountSummary' ? async () => 0 : null);
      if (count) summaries[field] = wordedSummary(await count(space), COUNTED[field]);
    }
    return summaries;
  }
}
