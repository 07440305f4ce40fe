import { PLAT_BRAND, type ProtocolBrand } from './brand';
import { ProtocolError } from './errors';
import type { ServiceEntry } from './identity-operation';
import { parseDidUrl } from './kid';
import { decodeEd25519Multikey, type MultikeyPublicKey } from './multikey';

/** Identity state after the last op of the (strictly linear) log. */
export interface IdentityState {
  did: string;
  isDeleted: boolean;
  authKeys: MultikeyPublicKey[];
  assertKeys: MultikeyPublicKey[];
  controllerKeys: MultikeyPublicKey[];
  services: ServiceEntry[];
  /** CID of the last operation */
  headCid: string;
  lastCreatedAt: string;
  opCount: number;
}

export type KeyRole = 'auth' | 'assert' | 'controller';
export const KEY_ROLES: readonly KeyRole[] = ['auth', 'assert', 'controller'];

const ROLE_SETS = { auth: 'authKeys', assert: 'assertKeys', controller: 'controllerKeys' } as const;

export function keysInRole(state: IdentityState, role: KeyRole): MultikeyPublicKey[] {
  return state[ROLE_SETS[role]];
}

/** The key with this id in any role of the state (one id names one key, see validation). */
export function findKey(state: IdentityState, keyId: string, role?: KeyRole): MultikeyPublicKey | undefined {
  const roles = role ? [role] : KEY_ROLES;
  for (const r of roles) {
    const key = keysInRole(state, r).find((k) => k.id === keyId);
    if (key) return key;
  }
  return undefined;
}

/** Roles the key id holds in this state, in the fixed order auth, assert, controller. */
export function keyRoles(state: IdentityState, keyId: string): KeyRole[] {
  return KEY_ROLES.filter((role) => keysInRole(state, role).some((k) => k.id === keyId));
}

export function hasKeyRole(state: IdentityState, keyId: string, role: KeyRole): boolean {
  return keysInRole(state, role).some((k) => k.id === keyId);
}

export interface ResolvedStateKey {
  readonly did: string;
  readonly keyId: string;
  readonly key: MultikeyPublicKey;
  readonly publicKey: Uint8Array;
  readonly roles: KeyRole[];
}

/**
 * Current-state key resolution (auth tokens, fresh admission): the kid's DID must be this identity,
 * the identity must not be deleted, and the key must be in the current state (in `role`, if given).
 * A rotated-out key therefore stops resolving at once.
 */
export function resolveCurrentKey(
  state: IdentityState,
  kid: string,
  options: { role?: KeyRole; brand?: ProtocolBrand } = {},
): ResolvedStateKey {
  const { did, keyId } = parseDidUrl(kid, options.brand ?? PLAT_BRAND);
  if (did !== state.did) throw new ProtocolError('KID_INVALID', `kid names ${did}, not ${state.did}`);
  if (state.isDeleted) throw new ProtocolError('IDENTITY_DELETED', `identity ${state.did} is deleted`);
  const key = findKey(state, keyId, options.role);
  if (!key) {
    const where = options.role ? `the ${options.role} keys` : 'the current keys';
    throw new ProtocolError('KEY_NOT_FOUND', `key ${keyId} is not among ${where} of ${state.did}`);
  }
  return {
    did,
    keyId,
    key,
    publicKey: decodeEd25519Multikey(key.publicKeyMultibase),
    roles: keyRoles(state, keyId),
  };
}
