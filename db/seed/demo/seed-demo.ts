import type { PlatClient } from '../../../src/protocol/client';
import { ensureContent, type ContentCounts } from './content';
import { DemoApi } from './demo-api';
import { ensurePerson, type SeededPerson } from './people';
import { DEMO_PLAN, type DemoPlan } from './plan';
import { ensureMembers, ensureSpace } from './spaces';

export interface DemoSeedOptions {
  /** The API as a client reaches it: the CLI's client, proofs naming the API's public host. */
  client: PlatClient;
  /** Where the key files go (one per person, `<handle>.json`, mode 0600). */
  keysDir: string;
  /** The API URL written into the key files' `account` and printed for the CLI (PLAT_API). */
  publicApi: string;
  plan?: DemoPlan;
  now?: Date;
  log?: (message: string) => void;
}

export interface DemoSeedResult {
  people: Array<{ handle: string; did: string; keyFile: string }>;
  spaces: Array<{ domain: string; id: string; did: string; created: boolean; added: ContentCounts }>;
}

/**
 * Creates (or completes) the demo community through the API, as its people's own clients would
 * (docs/decisions/0103-demo-community-seed.md). Idempotent: a second run finds everything and adds nothing.
 */
export async function seedDemoCommunity(options: DemoSeedOptions): Promise<DemoSeedResult> {
  const plan = options.plan ?? DEMO_PLAN;
  const log = options.log ?? (() => undefined);
  const api = new DemoApi(options.client);
  const people = new Map<string, SeededPerson>();
  for (const person of plan.people) {
    people.set(person.handle, await ensurePerson(api, person, options.keysDir, options.publicApi));
  }
  log(`demo: ${people.size} people with identity chains, key files in ${options.keysDir}`);

  const spaces: DemoSeedResult['spaces'] = [];
  for (const spacePlan of plan.spaces) {
    const space = await ensureSpace(api, spacePlan, people);
    await ensureMembers(api, space, spacePlan, people);
    const added = await ensureContent(api, space, spacePlan, people, options.now ?? new Date());
    spaces.push({ domain: space.domain, id: space.id, did: space.did, created: space.created, added });
    const what = Object.entries(added)
      .map(([kind, count]) => `${count} ${kind}`)
      .join(', ');
    log(`demo: space ${space.domain} ${space.created ? 'created' : 'found'}; added ${what}`);
  }
  return {
    people: [...people.values()].map(({ handle, identity, keyFile }) => ({
      handle,
      did: identity.did,
      keyFile,
    })),
    spaces,
  };
}
