import type { PlanContext, Scenario } from '../scenario-kit';
import { BIG_SPACE_DOMAIN } from '../seed-plan';

/**
 * Search (src/search, docs/decisions/0181-search-query-and-ranking.md) on the seeded database: a
 * one-word and a three-word query in the 100k-post space (anonymous: its public topics) and across
 * the bench reader's 32 spaces (signed by the reader, gated like the feed). `lantern` is one of the
 * seed's rarer words (bench/seed-texts.ts `RARE_WORDS`: about 1.6% of posts); the three-word query
 * adds two of the common words, the last one matched as a prefix as a search box sends it. Pages of
 * 20, the default. Targets: at least 0.6 of the twin; the space search's p99 under 50 ms at 20
 * connections (bench/README.md "Search").
 */

const ONE_WORD = 'q=lantern';
const THREE_WORDS = `q=${encodeURIComponent('lantern garden meet')}`;
const inSpace = (query: string) => `/v1/spaces/${BIG_SPACE_DOMAIN}/search?${query}`;
const across = (query: string) => `/v1/search?${query}`;

const readerProof = (context: PlanContext) => ({
  actors: [context.actors.reader],
  perRequest: false,
  audience: context.audience,
});

export const searchScenarios: Scenario[] = [
  {
    name: 'search one word (100k-post space)',
    group: 'read',
    request: () => ({ method: 'GET', path: inSpace(ONE_WORD) }),
    against: { kind: 'twin', handler: 'space search' },
    target: { ratio: 0.6 },
  },
  {
    name: 'search three words (100k-post space)',
    group: 'read',
    request: () => ({ method: 'GET', path: inSpace(THREE_WORDS) }),
    against: { kind: 'twin', handler: 'space search' },
    target: { ratio: 0.6 },
  },
  {
    name: 'search one word across 32 spaces',
    group: 'authenticated read',
    request: (context) => ({ method: 'GET', path: across(ONE_WORD), proof: readerProof(context) }),
    against: { kind: 'twin', handler: 'search across spaces' },
    target: { ratio: 0.6 },
  },
  {
    name: 'search three words across 32 spaces',
    group: 'authenticated read',
    request: (context) => ({ method: 'GET', path: across(THREE_WORDS), proof: readerProof(context) }),
    against: { kind: 'twin', handler: 'search across spaces' },
    target: { ratio: 0.6 },
  },
];
