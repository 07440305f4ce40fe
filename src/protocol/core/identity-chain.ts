import { PLAT_BRAND, typFor, type ProtocolBrand } from './brand';
import { cidOfEncoded } from './cid';
import { dagCborCanonicalEncode, type JsonObject } from './encoding';
import { ensure, ProtocolError } from './errors';
import { didFromGenesisCid } from './ids';
import { validateIdentityOperation, type IdentityOperation } from './identity-operation';
import type { IdentityState } from './identity-state';
import { decodeJws, signJws, verifyJwsSignature, type DecodedJws } from './jws';
import { didUrl, parseDidUrl } from './kid';
import { MAX_OPERATION_BYTES } from './limits';
import type { MultikeyPublicKey } from './multikey';
import type { KeySigner } from './signer';
import { assertNotTooFarInFuture } from './timestamp';

export interface AppliedIdentityOperation {
  /** state after the operation */
  readonly state: IdentityState;
  readonly cid: string;
  readonly operation: IdentityOperation;
  readonly jws: string;
  /** id of the controller key that signed it */
  readonly signerKeyId: string;
}

export interface IdentityVerifyOptions {
  brand?: ProtocolBrand;
}

export interface IdentityIngestOptions extends IdentityVerifyOptions {
  /** verifier clock: ops dated more than 24 h after it are refused */
  now: Date;
}

/** Decode, check the profile and typ, validate the payload, check header.cid and the size cap. */
function decodeIdentityOperation(jws: string, brand: ProtocolBrand) {
  const decoded = decodeJws(jws, { expectedTyp: typFor('identity-op', brand) });
  const operation = validateIdentityOperation(decoded.payload, brand);
  const encoded = dagCborCanonicalEncode(decoded.payload);
  ensure(
    encoded.length <= MAX_OPERATION_BYTES,
    'TOO_LARGE',
    `identity operation exceeds ${MAX_OPERATION_BYTES} bytes`,
  );
  const { cid, cidBytes } = cidOfEncoded(encoded);
  ensure(decoded.header.cid === cid, 'CID_MISMATCH', `header cid does not match the operation CID ${cid}`);
  return { decoded, operation, cid, cidBytes };
}

function signerKey(
  decoded: DecodedJws,
  controllerKeys: MultikeyPublicKey[],
  keyId: string,
  state: IdentityState | null,
) {
  const key = controllerKeys.find((k) => k.id === keyId);
  if (!key) {
    const elsewhere = state && [...state.authKeys, ...state.assertKeys].some((k) => k.id === keyId);
    throw elsewhere
      ? new ProtocolError('UNAUTHORIZED', `key ${keyId} is not a controller key of the prior state`)
      : new ProtocolError('KEY_NOT_FOUND', `signing key ${keyId} is not a current controller key`);
  }
  verifyJwsSignature(decoded, key.publicKeyMultibase);
  return key;
}

function applyGenesis(jws: string, brand: ProtocolBrand): AppliedIdentityOperation {
  const { decoded, operation, cid, cidBytes } = decodeIdentityOperation(jws, brand);
  ensure(operation.type === 'create', 'CHAIN_INVALID', 'the first identity operation must be a create');
  const kid = decoded.header.kid;
  // The DID does not exist before its genesis, so the genesis kid is the bare key id.
  ensure(!kid.includes('#'), 'KID_INVALID', 'the genesis kid must be a bare key id, not a DID URL');
  signerKey(decoded, operation.controllerKeys, kid, null); // self-signed by one of its own controller keys
  const state: IdentityState = {
    did: didFromGenesisCid(cidBytes, brand),
    isDeleted: false,
    authKeys: operation.authKeys,
    assertKeys: operation.assertKeys,
    controllerKeys: operation.controllerKeys,
    services: operation.services ?? [],
    headCid: cid,
    lastCreatedAt: operation.createdAt,
    opCount: 1,
  };
  return { state, cid, operation, jws, signerKeyId: kid };
}

function applyExtension(prior: IdentityState, jws: string, brand: ProtocolBrand): AppliedIdentityOperation {
  const { decoded, operation, cid } = decodeIdentityOperation(jws, brand);
  if (operation.type === 'create')
    throw new ProtocolError('CHAIN_INVALID', 'a create cannot extend an identity chain');
  if (operation.previousOperationCID !== prior.headCid) {
    throw new ProtocolError(
      'NOT_HEAD_EXTENSION',
      `operation extends ${operation.previousOperationCID}, not the head ${prior.headCid}`,
    );
  }
  // Deleted is sealed against everything but a restore; a restore is valid only right after a delete.
  if (prior.isDeleted && operation.type !== 'restore') {
    throw new ProtocolError(
      'IDENTITY_DELETED',
      `identity ${prior.did} is deleted: only a restore may follow`,
    );
  }
  if (operation.type === 'restore' && !prior.isDeleted) {
    throw new ProtocolError('CHAIN_INVALID', 'a restore must directly follow a delete');
  }
  if (!(operation.createdAt > prior.lastCreatedAt)) {
    throw new ProtocolError(
      'TIMESTAMP_ORDER',
      `createdAt ${operation.createdAt} is not after ${prior.lastCreatedAt}`,
    );
  }
  const { did, keyId } = parseDidUrl(decoded.header.kid, brand);
  ensure(did === prior.did, 'KID_INVALID', `kid names ${did}, not the chain's DID ${prior.did}`);
  // Signer must be a controller of the immediately prior state (for a restore: the deleted state).
  signerKey(decoded, prior.controllerKeys, keyId, prior);

  const base = { ...prior, headCid: cid, lastCreatedAt: operation.createdAt, opCount: prior.opCount + 1 };
  let state: IdentityState;
  switch (operation.type) {
    case 'update':
      state = {
        ...base,
        authKeys: operation.authKeys,
        assertKeys: operation.assertKeys,
        controllerKeys: operation.controllerKeys,
        services: operation.services ?? [],
      };
      break;
    case 'delete':
      state = { ...base, isDeleted: true }; // keys and services carried unchanged
      break;
    case 'restore':
      state = { ...base, isDeleted: false }; // keys and services as of the delete, verbatim
      break;
  }
  return { state, cid, operation, jws, signerKeyId: keyId };
}

/**
 * Incremental verification for relay ingest: `state` is the trusted current head (null for a new
 * identity). Returns the new state and the op CID. `NOT_HEAD_EXTENSION` means the op does not
 * extend this head; a relay that finds its parent already committed reports it as a conflicting
 * extension (permanent), otherwise as a missing dependency.
 */
export function applyIdentityOperation(
  state: IdentityState | null,
  jws: string,
  options: IdentityIngestOptions,
): AppliedIdentityOperation {
  const brand = options.brand ?? PLAT_BRAND;
  const applied = state === null ? applyGenesis(jws, brand) : applyExtension(state, jws, brand);
  assertNotTooFarInFuture(applied.operation.createdAt, options.now);
  return applied;
}

export interface VerifiedIdentityChain {
  readonly state: IdentityState;
  readonly operations: AppliedIdentityOperation[];
}

export interface IdentityChainVerifyOptions extends IdentityVerifyOptions {
  /** when given, also apply the 24-hour future bound (bare chain verification does not) */
  now?: Date;
  /** when given, the log must derive exactly this DID (self-certification for resolution) */
  expectedDid?: string;
}

/** Verifies a whole identity log in order: genesis first, then each op extending the one before. */
export function verifyIdentityChain(
  log: readonly string[],
  options: IdentityChainVerifyOptions = {},
): VerifiedIdentityChain {
  const brand = options.brand ?? PLAT_BRAND;
  ensure(log.length > 0, 'CHAIN_INVALID', 'an identity log has at least its genesis');
  const operations: AppliedIdentityOperation[] = [];
  const seen = new Set<string>();
  let state: IdentityState | null = null;
  for (const jws of log) {
    let applied: AppliedIdentityOperation;
    try {
      applied = state === null ? applyGenesis(jws, brand) : applyExtension(state, jws, brand);
    } catch (error) {
      // A second child of an op already in the log is a fork: the whole log is invalid.
      if (error instanceof ProtocolError && error.code === 'NOT_HEAD_EXTENSION') {
        const parent = (decodeJws(jws).payload as JsonObject).previousOperationCID as string;
        if (seen.has(parent)) {
          throw new ProtocolError(
            'CONFLICTING_EXTENSION',
            'identity chains are linear: conflicting extension refused',
          );
        }
      }
      throw error;
    }
    if (options.now) assertNotTooFarInFuture(applied.operation.createdAt, options.now);
    seen.add(applied.cid);
    operations.push(applied);
    state = applied.state;
  }
  const final = state as IdentityState;
  if (options.expectedDid !== undefined && final.did !== options.expectedDid) {
    throw new ProtocolError('CHAIN_INVALID', `log derives ${final.did}, not ${options.expectedDid}`);
  }
  return { state: final, operations };
}

/**
 * Every key that ever appeared in a create/update of the log: the historical resolver used for
 * credentials and re-verification of committed history (not for fresh admission or auth tokens).
 */
export function historicalKeys(operations: readonly IdentityOperation[]): MultikeyPublicKey[] {
  const keys = new Map<string, MultikeyPublicKey>();
  for (const op of operations) {
    if (op.type !== 'create' && op.type !== 'update') continue;
    for (const key of [...op.authKeys, ...op.assertKeys, ...op.controllerKeys]) {
      keys.set(`${key.id} ${key.publicKeyMultibase}`, key);
    }
  }
  return [...keys.values()];
}

export interface SignedOperation {
  readonly jws: string;
  readonly cid: string;
}

/**
 * Signs an identity op with a controller key: the genesis kid is the bare key id (and the DID is
 * returned); later ops need the chain's `did` for the `did#keyId` kid. Validates before signing.
 */
export function signIdentityOperation(
  operation: IdentityOperation,
  signer: KeySigner,
  options: { did?: string; brand?: ProtocolBrand } = {},
): SignedOperation & { did: string } {
  const brand = options.brand ?? PLAT_BRAND;
  validateIdentityOperation(operation as unknown as JsonObject, brand);
  const { cid, cidBytes } = cidOfEncoded(dagCborCanonicalEncode(operation));
  let kid: string;
  let did: string;
  if (operation.type === 'create') {
    kid = signer.keyId;
    did = didFromGenesisCid(cidBytes, brand);
  } else {
    ensure(options.did !== undefined, 'KID_INVALID', 'signing a non-genesis identity op needs the chain DID');
    did = options.did;
    kid = didUrl(did, signer.keyId);
  }
  const jws = signJws({ typ: typFor('identity-op', brand), kid, cid }, operation, signer);
  return { jws, cid, did };
}
