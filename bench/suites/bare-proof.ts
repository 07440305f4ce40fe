import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import { decodeEd25519Multikey } from '../../src/protocol/core/multikey';
import { BENCH_PUBLIC_HOST } from '../service-env';

/**
 * The bare baseline's request-proof check (design.md §3), the essential work without the framework:
 * parse `PLAT <jws>`, decode header and claims, check iss/sub/aud/htm/htu/iat/exp, find the `kid`
 * among the signer's current keys (identity state read from the relay's table, cached in process for
 * 60 s as the service caches it), verify the Ed25519 signature with node:crypto.
 */

const DID = /^did:plat:[2346789acdefhknrtvz]{31}$/;
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const STATE_TTL_MS = 60_000;

interface StoredKey {
  id: string;
  publicKeyMultibase: string;
}

export interface StoredState {
  did: string;
  headCid: string;
  authKeys: StoredKey[];
  assertKeys: StoredKey[];
  controllerKeys: StoredKey[];
}

export class ProofRefused extends Error {}

const states = new Map<string, { state: StoredState | null; expiresAt: number }>();
const keys = new Map<string, KeyObject>();

export interface BareProof {
  did: string;
  state: StoredState;
}

export async function verifyBareProof(pool: Pool, request: IncomingMessage): Promise<BareProof> {
  const authorization = request.headers.authorization ?? '';
  const [scheme, token, ...rest] = authorization.trim().split(/\s+/);
  if (scheme !== 'PLAT' || !token || rest.length > 0) throw new ProofRefused('not a PLAT proof');
  const parts = token.split('.');
  if (parts.length !== 3) throw new ProofRefused('malformed JWS');
  const header = json(parts[0]);
  const claims = json(parts[1]);
  const kid = header.kid;
  if (header.alg !== 'EdDSA' || typeof kid !== 'string') throw new ProofRefused('bad header');
  const did = claims.iss;
  if (typeof did !== 'string' || !DID.test(did) || claims.sub !== did) throw new ProofRefused('bad iss');
  if (claims.aud !== BENCH_PUBLIC_HOST) throw new ProofRefused('bad aud');
  if (claims.htm !== request.method || claims.htu !== request.url) throw new ProofRefused('bad htm/htu');
  const now = Math.floor(Date.now() / 1000);
  const iat = claims.iat as number;
  const exp = claims.exp as number;
  if (!(iat >= now - 300 && iat <= now + 60 && exp > iat && exp <= iat + 300 && exp > now))
    throw new ProofRefused('outside the window');

  const state = await stateOf(pool, did);
  if (!state) throw new ProofRefused('unknown identity');
  const hash = kid.indexOf('#');
  if (kid.slice(0, hash) !== did) throw new ProofRefused('kid names another identity');
  const keyId = kid.slice(hash + 1);
  const key = [...state.authKeys, ...state.assertKeys, ...state.controllerKeys].find((k) => k.id === keyId);
  if (!key) throw new ProofRefused('unknown key');
  const signature = Buffer.from(parts[2], 'base64url');
  if (!verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), publicKey(key.publicKeyMultibase), signature))
    throw new ProofRefused('bad signature');
  return { did, state };
}

/** The identity state the relay holds for `did`, or null; cached in process like the service does. */
export async function stateOf(pool: Pool, did: string): Promise<StoredState | null> {
  const hit = states.get(did);
  if (hit && hit.expiresAt > Date.now()) return hit.state;
  const { rows } = await pool.query<{ state: StoredState }>(
    'SELECT state FROM relay_identity_chains WHERE did = $1',
    [did],
  );
  const state = rows[0]?.state ?? null;
  states.set(did, { state, expiresAt: Date.now() + STATE_TTL_MS });
  return state;
}

function publicKey(multikey: string): KeyObject {
  let key = keys.get(multikey);
  if (!key) {
    const raw = decodeEd25519Multikey(multikey);
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    keys.set(multikey, key);
  }
  return key;
}

function json(part: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new ProofRefused('malformed JWS segment');
}
