import { join } from 'node:path';
import {
  PlatIdentity,
  exists,
  readKeyFile,
  writeKeyFile,
  type KeyFileJson,
  type PlatClient,
} from '../../../src/protocol/client';
import type { DemoApi } from './demo-api';
import type { DemoPerson } from './plan';

interface OwnProfile {
  handle: string;
  displayName: string | null;
  bio: string | null;
  isPublic: boolean;
}

export interface SeededPerson {
  handle: string;
  identity: PlatIdentity;
  keyFile: string;
}

/**
 * One demo person, as `plat identity create --handle` would make them: keys generated and written
 * to `<keysDir>/<handle>.json` (the CLI's key file, mode 0600) before anything is published, the
 * genesis published through the relay GET /v1/protocol names, the account claimed and the profile
 * made public. A key file from an earlier run is reused, so a second run republishes (duplicates)
 * and changes nothing.
 */
export async function ensurePerson(
  api: DemoApi,
  person: DemoPerson,
  keysDir: string,
  publicApi: string,
): Promise<SeededPerson> {
  const keyFile = join(keysDir, `${person.handle}.json`);
  const identity = (await exists(keyFile)) ? (await readKeyFile(keyFile)).identity : await create(keyFile);
  const client: PlatClient = api.client;
  await client.publishOperations(identity.log);

  const own = await api.call<OwnProfile>(identity, 'GET', '/v1/profile', undefined, [200, 404]);
  if (own.status === 404) {
    const claimed = await api.call(identity, 'POST', '/users', { handle: person.handle }, [201, 409]);
    if (claimed.status === 409) {
      throw new Error(
        `the handle @${person.handle} belongs to another identity than ${keyFile}: this database holds ` +
          `a demo whose key files are gone; seed a fresh database or set SEED_DEMO=false`,
      );
    }
  } else if (own.body.handle !== person.handle) {
    throw new Error(`${keyFile} is the identity of @${own.body.handle}, not @${person.handle}`);
  }
  const profile = { displayName: person.displayName, bio: person.bio, isPublic: true };
  // Only a change is written: every profile write appends to the person's profile chain.
  const current: Partial<OwnProfile> = own.status === 200 ? own.body : {};
  if (Object.entries(profile).some(([key, value]) => current[key as keyof OwnProfile] !== value)) {
    await api.call(identity, 'PATCH', '/profile', profile);
  }

  const file: KeyFileJson = identity.toKeyFile({
    published: { relayUrl: await client.relayUrl(), headCid: identity.headCid },
    account: { api: publicApi, handle: person.handle },
  });
  await writeKeyFile(keyFile, file, { overwrite: true });
  return { handle: person.handle, identity, keyFile };
}

async function create(keyFile: string): Promise<PlatIdentity> {
  const identity = PlatIdentity.create();
  await writeKeyFile(keyFile, identity.toKeyFile());
  return identity;
}
