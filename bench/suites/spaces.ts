import { walkCursors, type PageEnvelope } from '../cursor-walk';
import type { PlanContext, Scenario } from '../scenario-kit';
import { BIG_SPACE_DOMAIN } from '../seed-plan';

/**
 * The public space directory (docs/decisions/0041-public-space-reads.md) over the seed's spaces (BENCH_SEED_SPACES, default
 * 10,000, 88% public and live): the first page, the page after walking BENCH_SPACES_DEPTH (default
 * 50) pages by their cursors (a keyset page should cost what the first one costs), and the single
 * fetch of the big space (its privatePostCountSummary sums the counters of its non-public topics,
 * its eventCountSummary counts its events: the counts the posts and events modules register).
 */
const FIRST_PAGE = '/v1/spaces?limit=100';

async function deepPath(context: PlanContext): Promise<string> {
  const wanted = Number(process.env.BENCH_SPACES_DEPTH ?? 50);
  const depth = Math.max(1, Math.min(wanted, Math.floor((context.plan.spaces * 0.88) / 100) - 1));
  const walk = await walkCursors<{ id: string }>(async (cursor) => {
    const response = await fetch(
      `${context.appUrl}${FIRST_PAGE}${cursor === null ? '' : `&after=${encodeURIComponent(cursor)}`}`,
    );
    if (!response.ok) throw new Error(`walking the directory: ${response.status} ${await response.text()}`);
    return (await response.json()) as PageEnvelope<{ id: string }>;
  }, depth);
  context.log(`spaces deep page: page ${depth + 1}, after ${walk.items} spaces`);
  return `${FIRST_PAGE}&after=${encodeURIComponent(walk.cursor)}`;
}

export const spacesScenarios: Scenario[] = [
  {
    name: 'spaces first page',
    group: 'read',
    request: () => ({ method: 'GET', path: FIRST_PAGE }),
    against: { kind: 'twin', handler: 'spaces directory' },
    target: { ratio: 0.6 },
  },
  {
    name: 'spaces deep page by cursor',
    group: 'read',
    request: async (context) => ({ method: 'GET', path: await deepPath(context) }),
    against: { kind: 'twin', handler: 'spaces directory' },
    relativeTo: 'spaces first page',
    target: { ratio: 0.6, relative: 0.9 },
  },
  {
    name: 'space single fetch',
    group: 'read',
    request: () => ({ method: 'GET', path: `/v1/spaces/${BIG_SPACE_DOMAIN}` }),
    against: { kind: 'twin', handler: 'space fetch' },
    target: { ratio: 0.6 },
  },
];
