import { randomBytes } from 'node:crypto';
import { PlatClient, PlatIdentity, signRequestProof } from '../../src/protocol/client';
import { SkipScenario, type Scenario, type SetupContext } from '../scenario-kit';
import { ProofRefused, verifyBareProof } from './bare-proof';

/**
 * GET /v1/profile with a real request proof. Setup (once per run): a new identity, its genesis
 * published through the service's relay, an account claimed (POST /users); then before every
 * measured phase ONE read proof with a 300 s lifetime and no `jti` (reads may omit it, design.md
 * §3), replayed by every request of that phase.
 *
 * Bare baseline: the same proof checked without the framework (bench/suites/bare-proof.ts: claims,
 * cached identity state, one Ed25519 verify with node:crypto), then the user row selected by DID,
 * answered as the same JSON.
 */

const PROOF_LIFETIME_SECONDS = 300;
/** Margin for the time between signing and the first request, and clock granularity. */
const PROOF_MARGIN_SECONDS = 10;

async function benchAccount(context: SetupContext): Promise<PlatIdentity> {
  const client = new PlatClient({ baseUrl: context.serviceUrl, audience: context.audience });
  const identity = PlatIdentity.create();
  await client.publishOperations(identity.log);
  // The bench database persists across runs: one fresh handle per run.
  const handle = `bench-${randomBytes(6).toString('hex')}`;
  await client.createAccount(identity, handle, 'Bench user');
  context.log(`account ${handle} (${identity.did})`);
  return identity;
}

export const profileScenarios: Scenario[] = [
  {
    name: 'authenticated profile',
    method: 'GET',
    path: '/v1/profile',
    setup: async (context) => {
      if (context.phaseSeconds + PROOF_MARGIN_SECONDS > PROOF_LIFETIME_SECONDS) {
        throw new SkipScenario(
          `one phase lasts ${context.phaseSeconds} s; a request proof lives ${PROOF_LIFETIME_SECONDS} s`,
        );
      }
      const identity = await context.shared('bench account', () => benchAccount(context));
      return {
        headers: () => ({
          authorization: signRequestProof({
            identity,
            audience: context.audience,
            method: 'GET',
            target: '/v1/profile',
            jti: false,
            lifetimeSeconds: PROOF_LIFETIME_SECONDS,
          }).authorization,
        }),
      };
    },
    baseline: async ({ pool, request }) => {
      let did: string;
      let headCid: string;
      try {
        const proof = await verifyBareProof(pool, request);
        did = proof.did;
        headCid = proof.state.headCid;
      } catch (error) {
        if (error instanceof ProofRefused) return { status: 401, body: { error: error.message } };
        throw error;
      }
      const { rows } = await pool.query<UserRow>('SELECT * FROM users WHERE did = $1 LIMIT 1', [did]);
      const user = rows[0];
      if (!user) return { status: 404, body: { error: 'no account' } };
      return {
        body: {
          id: `identity_${user.id.replace(/-/g, '')}`,
          did: user.did,
          handle: user.handle,
          displayName: user.display_name,
          avatarUrl: null,
          bio: user.bio,
          links: user.links.map((link) => ({
            url: link.url,
            label: link.label,
            description: link.description,
          })),
          verifiedDomain: user.verified_domain,
          protocol: { headOpCid: headCid },
          isPublic: user.is_public,
          email: user.email,
          createdAt: user.created_at.toISOString(),
          updatedAt: user.updated_at.toISOString(),
        },
      };
    },
  },
];

interface UserRow {
  id: string;
  did: string;
  handle: string;
  display_name: string | null;
  bio: string | null;
  links: { url: string; label: string | null; description: string | null }[];
  is_public: boolean;
  email: string | null;
  verified_domain: string | null;
  created_at: Date;
  updated_at: Date;
}
