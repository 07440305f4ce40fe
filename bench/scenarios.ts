import type { Scenario } from './scenario-kit';
import { eventsScenarios } from './suites/events';
import { floorScenarios } from './suites/floor';
import { hardeningScenarios } from './suites/hardening';
import { limiterScenarios } from './suites/limiter';
import { mediaScenarios } from './suites/media';
import { notificationScenarios } from './suites/notifications';
import { peopleScenarios } from './suites/people';
import { postsScenarios } from './suites/posts';
import { searchScenarios } from './suites/search';
import { spacesScenarios } from './suites/spaces';
import { storeScenarios } from './suites/store';
import { webhookScenarios } from './suites/webhooks';
import { writeScenarios } from './suites/writes';

/**
 * What the benchmark runs, in order (writes last: they add rows the reads would then list). Each
 * scenario is a pair, the app against its counterpart (bench/scenario-kit.ts). Adding one: a
 * scenario in a suite (bench/suites/), and for a bare twin its handler (bench/twin/handlers.ts)
 * doing the app's statements and answering its bytes; `npm run bench:verify` shows both.
 */
export const scenarios: Scenario[] = [
  ...floorScenarios,
  ...postsScenarios,
  ...searchScenarios,
  ...spacesScenarios,
  ...peopleScenarios,
  ...mediaScenarios,
  ...storeScenarios,
  ...eventsScenarios,
  ...limiterScenarios,
  ...hardeningScenarios,
  ...writeScenarios,
  ...notificationScenarios,
  ...webhookScenarios,
];

/**
 * `BENCH_SCENARIOS=a,b` keeps the scenarios whose name contains any of the given parts; without
 * it, every scenario but the optional ones.
 */
export function selectScenarios(filter: string | undefined, from: Scenario[] = scenarios): Scenario[] {
  const parts = (filter ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
  if (parts.length === 0) return from.filter((s) => !s.optional);
  return from.filter((s) => parts.some((part) => s.name.toLowerCase().includes(part)));
}
