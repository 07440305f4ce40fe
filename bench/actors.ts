import type { Pool } from 'pg';
import { issueCredential, PlatClient, PlatIdentity, type KeyFileJson } from '../src/protocol/client';
import { BIG_SPACE, FIRST_OTHER_SPACE, postId, SMALL_SPACE, spaceId, type SeedPlan } from './seed-plan';

/**
 * The people who sign the bench's requests, made once per run on the run's fresh database: each a
 * new identity whose genesis is published through the app's own relay, with an account claimed
 * through the app (POST /users); then, in SQL as a join would leave them, active memberships of
 * the big and small spaces and of `FEED_SPACES` other public spaces (the feed reads all of them),
 * the spaces' member counts recounted, and the reader's upvotes on the big space's 20 newest posts
 * (so the member view's `viewer.upvoted` is sometimes true). The reader also issues actor 1 a
 * credential, so actor 1 can read as an app acting for the reader.
 */
export interface Actors {
  /** Actor 0: every authenticated read. */
  reader: KeyFileJson;
  /** All of them (the reader first): writes rotate over them. */
  writers: KeyFileJson[];
  /** The reader's DID. */
  readerDid: string;
  /**
   * An app acting for the reader: actor 1 signs the request proofs, presenting `credential`, which
   * the reader issued to it (read:posts on every space, a day long).
   */
  app: KeyFileJson;
  credential: string;
}

export const ACTOR_COUNT = 4;
const FEED_SPACES = 30;
const READER_UPVOTES = 20;

export async function createActors(
  context: { appUrl: string; audience: string; pool: Pool; plan: SeedPlan },
  log: (message: string) => void,
): Promise<Actors> {
  const client = new PlatClient({ baseUrl: context.appUrl, audience: context.audience });
  const identities: PlatIdentity[] = [];
  for (let i = 0; i < ACTOR_COUNT; i++) {
    const identity = PlatIdentity.create();
    await client.publishOperations(identity.log);
    await client.createAccount(identity, `bench-actor-${i}`, `Bench actor ${i}`);
    identities.push(identity);
  }
  const spaces = [BIG_SPACE, SMALL_SPACE];
  // Public, live spaces of the directory (numbers not divisible by 10 nor 1 mod 50).
  for (
    let n = FIRST_OTHER_SPACE;
    spaces.length < 2 + FEED_SPACES && n < FIRST_OTHER_SPACE + context.plan.spaces;
    n++
  )
    if (n % 10 !== 0 && n % 50 !== 1) spaces.push(n);
  const spaceIds = spaces.map(spaceId);
  const dids = identities.map((identity) => identity.did);
  await context.pool.query(
    `INSERT INTO space_memberships (space_id, member_did, role, status, joined_at, created_at, updated_at)
     SELECT s, d, 'member', 'active', now(), now(), now() FROM unnest($1::uuid[]) AS s, unnest($2::varchar[]) AS d`,
    [spaceIds, dids],
  );
  await context.pool.query(
    `UPDATE spaces SET member_count =
       (SELECT count(*) FROM space_memberships WHERE space_id = spaces.id AND status = 'active')
     WHERE id = ANY($1::uuid[])`,
    [spaceIds],
  );
  const upvoted = Array.from({ length: READER_UPVOTES }, (_, n) => postId(BIG_SPACE, n));
  await context.pool.query(
    `INSERT INTO post_upvotes (post_id, voter_did, created_at) SELECT p, $2, now() FROM unnest($1::uuid[]) AS p`,
    [upvoted, dids[0]],
  );
  await context.pool.query(`UPDATE posts SET upvote_count = upvote_count + 1 WHERE id = ANY($1::uuid[])`, [
    upvoted,
  ]);
  log(`actors: ${ACTOR_COUNT} identities with accounts, members of ${spaces.length} spaces`);
  const files = identities.map((identity) => identity.toKeyFile());
  const credential = issueCredential(identities[0], {
    audience: identities[1].did,
    host: context.audience,
    scopes: ['read:posts'],
    spaces: ['*'],
    expiresInSeconds: 86_400,
  });
  return {
    reader: files[0],
    writers: files,
    readerDid: dids[0],
    app: files[1],
    credential: credential.token,
  };
}
