import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import {
  canonicalActionSet,
  credentialHash,
  isDagCborCid,
  parseDidUrl,
  verifyCredential,
} from '../../src/protocol/core';
import { AUTH_STATEMENTS } from '../../src/protocol/auth/auth.repository';
import { decodeEd25519Multikey } from '../../src/protocol/core/multikey';
import {
  RELAY_CHAINS_STATEMENTS,
  type IdentityRow,
} from '../../src/protocol/relay/repositories/relay-chains.repository';
import { RELAY_REVOCATIONS_STATEMENTS } from '../../src/protocol/relay/repositories/relay-revocations.repository';
import { BENCH_PUBLIC_HOST } from '../service-env';

/**
 * The twin's request-proof check (design.md §3), the essential work without the framework: parse
 * `PLAT <jws>`, decode header and claims, check typ/alg/kid, iss/sub/aud/htm/htu, the iat/exp
 * window and the jti's form, find the `kid` among the signer's current keys (an auth key for a
 * write), verify the Ed25519 signature with node:crypto. The identity state is read from the
 * relay's table with the app's statement (did, state, key_history) and cached in process for 60 s
 * as the app caches it. A write's (signer, jti) is reserved with the app's statement, and expired
 * pairs are swept at most once a minute off the request path, as the app does.
 */

const DID = /^did:plat:[2346789acdefhknrtvz]{31}$/;
const JTI = /^[A-Za-z0-9_-]{16,128}$/;
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const STATE_TTL_MS = 60_000;
const REPLAY_WINDOW_SECONDS = 360;

interface StoredKey {
  id: string;
  publicKeyMultibase: string;
}

export interface StoredState {
  did: string;
  headCid: string;
  isDeleted?: boolean;
  authKeys: StoredKey[];
  assertKeys: StoredKey[];
  controllerKeys: StoredKey[];
}

/** A refused proof: the twin answers 401 (never expected in a bench run: verify would show it). */
export class ProofRefused extends Error {}

const states = new Map<string, { state: StoredState | null; keyHistory: StoredKey[]; expiresAt: number }>();
const keys = new Map<string, KeyObject>();
let lastSweep = 0;

export interface BareProof {
  did: string;
  state: StoredState;
  jti?: string;
}

export async function verifyBareProof(pool: Pool, request: IncomingMessage): Promise<BareProof> {
  const authorization = request.headers.authorization ?? '';
  if (!authorization.startsWith('PLAT ')) throw new ProofRefused('not a PLAT proof');
  const token = authorization.slice(5);
  if (!token || /\s/.test(token)) throw new ProofRefused('not a PLAT proof');
  const parts = token.split('.');
  if (parts.length !== 3) throw new ProofRefused('malformed JWS');
  const header = json(parts[0]);
  const claims = json(parts[1]);
  const kid = header.kid;
  if (header.alg !== 'EdDSA' || header.typ !== 'JWT' || typeof kid !== 'string' || kid.length === 0)
    throw new ProofRefused('bad header');
  const did = claims.iss;
  if (typeof did !== 'string' || !DID.test(did) || claims.sub !== did) throw new ProofRefused('bad iss');
  if (claims.aud !== BENCH_PUBLIC_HOST) throw new ProofRefused('bad aud');
  if (claims.htm !== request.method || claims.htu !== request.url) throw new ProofRefused('bad htm/htu');
  const now = Math.floor(Date.now() / 1000);
  const iat = claims.iat;
  const exp = claims.exp;
  if (!Number.isSafeInteger(iat) || !Number.isSafeInteger(exp)) throw new ProofRefused('iat/exp');
  const issued = iat as number;
  const expires = exp as number;
  if (!(
    issued >= now - 300 &&
    issued <= now + 60 &&
    expires > issued &&
    expires <= issued + 300 &&
    expires > now
  ))
    throw new ProofRefused('outside the window');
  const isWrite = request.method !== 'GET' && request.method !== 'HEAD';
  const jti = claims.jti;
  if (jti !== undefined && (typeof jti !== 'string' || !JTI.test(jti)))
    throw new ProofRefused('malformed jti');
  if (isWrite && jti === undefined) throw new ProofRefused('jti is required on writes');
  const credential = request.headers['x-credential'];
  if (typeof credential === 'string' && claims.ath !== credentialHash(credential))
    throw new ProofRefused('ath does not match X-Credential');

  const state = await stateOf(pool, did);
  if (!state) throw new ProofRefused('unknown identity');
  const hash = kid.indexOf('#');
  if (kid.slice(0, hash) !== did) throw new ProofRefused('kid names another identity');
  const keyId = kid.slice(hash + 1);
  const candidates = isWrite
    ? state.authKeys
    : [...state.authKeys, ...state.assertKeys, ...state.controllerKeys];
  const key = candidates.find((k) => k.id === keyId);
  if (!key) throw new ProofRefused('unknown key');
  const signature = Buffer.from(parts[2], 'base64url');
  if (!verify(null, Buffer.from(`${parts[0]}.${parts[1]}`), publicKey(key.publicKeyMultibase), signature))
    throw new ProofRefused('bad signature');
  if (isWrite) await reserveJti(pool, did, jti as string);
  return { did, state, ...(typeof jti === 'string' ? { jti } : {}) };
}

/** The identity state the relay holds for `did`, or null; cached in process like the app does. */
export async function stateOf(pool: Pool, did: string): Promise<StoredState | null> {
  return (await identityOf(pool, did)).state;
}

async function identityOf(
  pool: Pool,
  did: string,
): Promise<{ state: StoredState | null; keyHistory: StoredKey[] }> {
  const hit = states.get(did);
  if (hit && hit.expiresAt > Date.now()) return hit;
  const { rows } = await pool.query<IdentityRow>(RELAY_CHAINS_STATEMENTS.identity, [did]);
  const entry = {
    state: (rows[0]?.RelayIdentityChain_state as StoredState | undefined) ?? null,
    keyHistory: (rows[0]?.RelayIdentityChain_key_history as StoredKey[] | undefined) ?? [],
    expiresAt: Date.now() + STATE_TTL_MS,
  };
  states.set(did, entry);
  return entry;
}

/**
 * The X-Credential of a request whose proof `signer` signed (design.md §4), checked with the
 * protocol library as the app checks it: addressed to the signer, for this host, every level's
 * signature by a key the issuer ever held (identity state and key history, cached as above), and
 * the app's revocation statement per level (in the guard, before the route reads anything). The
 * DID acting (the root issuer), and whether it holds a scope on a space.
 */
export async function verifyTwinCredential(
  pool: Pool,
  token: string,
  signer: string,
): Promise<{ acting: string; covers: (spaceDid: string, scope: string) => boolean }> {
  const credential = await verifyCredential(token, {
    now: new Date(),
    expectedAudience: signer,
    expectedHost: BENCH_PUBLIC_HOST,
    allowPublicAudience: false,
    isRevoked: async (cid, issuerDid) => {
      if (!isDagCborCid(cid)) return false;
      const { revoked } = RELAY_REVOCATIONS_STATEMENTS;
      const { rows } =
        issuerDid === undefined
          ? await pool.query(revoked.any, [cid])
          : await pool.query(revoked.byIssuer, [cid, issuerDid]);
      return rows.length > 0;
    },
    resolveIssuerKey: async (kid, issuerDid) => {
      const { did, keyId } = parseDidUrl(kid);
      const identity = await identityOf(pool, issuerDid);
      if (!identity.state || did !== issuerDid) throw new ProofRefused('unknown issuer');
      if (identity.state.isDeleted) throw new ProofRefused('issuer identity is deleted');
      const key = [...identity.keyHistory].reverse().find((k) => k.id === keyId);
      if (!key) throw new ProofRefused('unknown issuer key');
      return key.publicKeyMultibase;
    },
  });
  return {
    acting: credential.rootIssuer,
    covers: (spaceDid, scope) =>
      credential.att.some(
        ({ resource, action }) =>
          (resource === 'space:*' || resource === `space:${spaceDid}`) &&
          canonicalActionSet(action).has(scope),
      ),
  };
}

/** The app's replay reservation (ReplayService.remember); a replayed pair is a 409. */
async function reserveJti(pool: Pool, did: string, jti: string): Promise<void> {
  const now = new Date();
  const { rows } = await pool.query(AUTH_STATEMENTS.rememberJti, [
    did,
    jti,
    new Date(now.getTime() + REPLAY_WINDOW_SECONDS * 1000),
    now,
  ]);
  if (now.getTime() - lastSweep >= 60_000) {
    lastSweep = now.getTime();
    pool.query(AUTH_STATEMENTS.deleteExpiredJtis, [now]).catch(() => undefined);
  }
  if (rows.length !== 1) throw new ProofRefused('replayed request');
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
