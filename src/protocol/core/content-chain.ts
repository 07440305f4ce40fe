import { PLAT_BRAND, typFor, type ProtocolBrand } from './brand';
import { cidOfEncoded } from './cid';
import {
  decodeContentOperation,
  validateContentOperation,
  type ContentOperation,
  type DecodedContentOperation,
} from './content-operation';
import { credentialGrants, verifyCredential } from './credentials';
import { dagCborCanonicalEncode, type JsonObject } from './encoding';
import { ensure, ProtocolError } from './errors';
import { selectHead } from './head-selection';
import { contentIdFromGenesisCid } from './ids';
import { signJws, verifyJwsSignature } from './jws';
import type { KeyResolver, MaybePromise, RevocationCheck } from './key-resolution';
import { didUrl, parseDidUrl } from './kid';
import type { KeySigner } from './signer';
import { assertNotTooFarInFuture, createdAtToEpochMs } from './timestamp';

/** A verified operation as stored in a content chain's DAG. */
export interface ContentOperationRecord {
  readonly cid: string;
  readonly jws: string;
  readonly operation: ContentOperation;
  readonly type: ContentOperation['type'];
  readonly previousCid: string | null;
  readonly createdAt: string;
  readonly signerDid: string;
  readonly signerKeyId: string;
  /** the document after this operation (null when cleared or deleted) */
  readonly documentCID: string | null;
  /** CID of the verified write credential, for a delegated operation */
  readonly credentialCid?: string;
}

/** What a content chain is, fixed by its genesis. */
export interface ContentChainIdentity {
  readonly contentId: string;
  readonly genesisCid: string;
  /** the genesis signer: owns the chain forever (creator sovereignty) */
  readonly creatorDid: string;
}

export interface ContentChainState extends ContentChainIdentity {
  readonly headCid: string;
  readonly isDeleted: boolean;
  readonly currentDocumentCID: string | null;
  /** number of operations in the log, all branches */
  readonly length: number;
}

export interface ContentVerifyOptions {
  /**
   * The op signer's key from its `did#keyId` kid. Deletion gates live here: throw when the signer's
   * identity is deleted (and, at ingest, when the chain creator's is). Current-state resolution at
   * admission, historical when re-verifying committed history (WEB-RELAY.md "Key Resolution").
   */
  resolveKey: KeyResolver;
  /** revocation of a delegated op's credential, checked at every level */
  isRevoked: RevocationCheck;
  /** issuer keys of authorization credentials (historical); defaults to resolveKey */
  resolveCredentialKey?: (kid: string, issuerDid: string) => MaybePromise<Uint8Array | string>;
  /** creator sovereignty: non-creator signers need a write credential (default true) */
  enforceAuthorization?: boolean;
  /** expected `host` of authorization credentials, when the deployment binds credentials to a host */
  credentialHost?: string;
  /** accept `aud: "*"` write credentials (a world-writable bearer grant; default false) */
  allowPublicAudience?: boolean;
  /**
   * Re-verification of committed history: ask isRevoked "as of" each op's createdAt. Leave unset at
   * ingest (acceptance is timeless: any known revocation refuses the op).
   */
  revocationAsOf?: boolean;
  brand?: ProtocolBrand;
}

export interface ContentIngestOptions extends ContentVerifyOptions {
  /** verifier clock: ops dated more than 24 h after it are refused */
  now: Date;
}

/** State at the fork point an op extends: the chain and the parent op (null for a genesis). */
export interface ContentExtensionContext {
  readonly chain: ContentChainIdentity;
  readonly parent: ContentOperationRecord;
}

export interface AppliedContentOperation {
  readonly chain: ContentChainIdentity;
  readonly record: ContentOperationRecord;
}

async function verifyContentOperation(
  context: ContentExtensionContext | null,
  decoded: DecodedContentOperation,
  options: ContentVerifyOptions,
): Promise<AppliedContentOperation> {
  const brand = options.brand ?? PLAT_BRAND;
  const { operation, cid, cidBytes, jws } = decoded;

  let chain: ContentChainIdentity;
  let previousCid: string | null = null;
  if (context === null) {
    ensure(operation.type === 'create', 'CHAIN_INVALID', 'the first content operation must be a create');
    chain = { contentId: contentIdFromGenesisCid(cidBytes), genesisCid: cid, creatorDid: operation.did };
  } else {
    const { parent } = context;
    chain = context.chain;
    if (operation.type === 'create')
      throw new ProtocolError('CHAIN_INVALID', 'a create cannot extend a content chain');
    ensure(
      operation.previousOperationCID === parent.cid,
      'CHAIN_INVALID',
      'previousOperationCID is not the given parent',
    );
    // A delete seals its own branch; forks from earlier operations stay open.
    ensure(parent.type !== 'delete', 'CHAIN_INVALID', 'no operation may follow a delete on its branch');
    // Per-branch ordering: against the parent, not the rest of the DAG.
    ensure(
      operation.createdAt > parent.createdAt,
      'TIMESTAMP_ORDER',
      `createdAt ${operation.createdAt} is not after its parent's ${parent.createdAt}`,
    );
    previousCid = parent.cid;
  }

  // kid DID = payload did: otherwise this is a countersignature, not a chain operation.
  const { did: signerDid, keyId } = parseDidUrl(jws.header.kid, brand);
  ensure(
    signerDid === operation.did,
    'KID_INVALID',
    `kid DID ${signerDid} is not the operation did ${operation.did}`,
  );
  verifyJwsSignature(jws, await options.resolveKey(jws.header.kid));

  let credentialCid: string | undefined;
  if (signerDid !== chain.creatorDid && (options.enforceAuthorization ?? true)) {
    credentialCid = await verifyWriteAuthorization(operation, chain, signerDid, options, brand);
  }

  const record: ContentOperationRecord = {
    cid,
    jws: jws.token,
    operation,
    type: operation.type,
    previousCid,
    createdAt: operation.createdAt,
    signerDid,
    signerKeyId: keyId,
    documentCID: operation.type === 'delete' ? null : operation.documentCID,
    ...(credentialCid !== undefined ? { credentialCid } : {}),
  };
  return { chain, record };
}

/**
 * Creator sovereignty for a non-creator signer: the op must carry a write credential for this
 * chain, addressed to the signer, rooted at the creator, valid at the op's own createdAt (never
 * the wall clock, so every relay reaches the same verdict) and unrevoked at every level.
 */
async function verifyWriteAuthorization(
  operation: ContentOperation,
  chain: ContentChainIdentity,
  signerDid: string,
  options: ContentVerifyOptions,
  brand: ProtocolBrand,
): Promise<string> {
  const authorization = operation.type === 'create' ? undefined : operation.authorization;
  if (authorization === undefined) {
    throw new ProtocolError(
      'UNAUTHORIZED',
      `${signerDid} is not the chain creator and carries no authorization`,
    );
  }
  const resolveCredentialKey = options.resolveCredentialKey ?? ((kid: string) => options.resolveKey(kid));
  const credential = await verifyCredential(authorization, {
    resolveIssuerKey: resolveCredentialKey,
    isRevoked: options.isRevoked,
    now: new Date(createdAtToEpochMs(operation.createdAt)),
    expectedAudience: signerDid,
    expectedRoot: chain.creatorDid,
    expectedHost: options.credentialHost,
    allowPublicAudience: options.allowPublicAudience,
    revocationAsOf: options.revocationAsOf ? operation.createdAt : undefined,
    brand,
  });
  ensure(
    credentialGrants(credential, { resource: `chain:${chain.contentId}`, action: 'write' }, brand),
    'UNAUTHORIZED',
    `the authorization credential does not grant write on chain:${chain.contentId}`,
  );
  return credential.cid;
}

/**
 * Incremental verification for relay ingest. `context` is null for a genesis, else the chain and
 * the parent record named by the op's previousOperationCID (any op of the DAG: forks are valid).
 * The caller then recomputes the head with `contentChainState` / `selectHead`.
 */
export async function applyContentOperation(
  context: ContentExtensionContext | null,
  token: string | DecodedContentOperation,
  options: ContentIngestOptions,
): Promise<AppliedContentOperation> {
  const decoded = typeof token === 'string' ? decodeContentOperation(token, { brand: options.brand }) : token;
  assertNotTooFarInFuture(decoded.operation.createdAt, options.now);
  return verifyContentOperation(context, decoded, options);
}

/** Chain state from its verified records: the deterministic head over all tips. */
export function contentChainState(
  chain: ContentChainIdentity,
  records: readonly ContentOperationRecord[],
): ContentChainState {
  const head = selectHead(records);
  return {
    ...chain,
    headCid: head.cid,
    isDeleted: head.type === 'delete',
    currentDocumentCID: head.documentCID,
    length: records.length,
  };
}

export interface VerifiedContentChain {
  readonly state: ContentChainState;
  readonly records: ContentOperationRecord[];
}

/**
 * Verifies a content log: genesis first, every other op extending an op earlier in the log (the
 * log may hold several branches). Without `now`, the 24-hour bound is not applied.
 */
export async function verifyContentChain(
  log: readonly string[],
  options: ContentVerifyOptions & { now?: Date },
): Promise<VerifiedContentChain> {
  ensure(log.length > 0, 'CHAIN_INVALID', 'a content log has at least its genesis');
  const byCid = new Map<string, ContentOperationRecord>();
  const records: ContentOperationRecord[] = [];
  let chain: ContentChainIdentity | null = null;
  for (const token of log) {
    const decoded = decodeContentOperation(token, { brand: options.brand });
    ensure(!byCid.has(decoded.cid), 'CHAIN_INVALID', `operation ${decoded.cid} appears twice`);
    if (options.now) assertNotTooFarInFuture(decoded.operation.createdAt, options.now);
    let context: ContentExtensionContext | null = null;
    if (chain !== null) {
      ensure(decoded.operation.type !== 'create', 'CHAIN_INVALID', 'a content log has exactly one create');
      const parent = byCid.get(decoded.operation.previousOperationCID);
      ensure(
        parent !== undefined,
        'CHAIN_INVALID',
        `operation ${decoded.cid} extends an operation not earlier in the log`,
      );
      context = { chain, parent };
    }
    const applied = await verifyContentOperation(context, decoded, options);
    chain = applied.chain;
    byCid.set(applied.record.cid, applied.record);
    records.push(applied.record);
  }
  return { state: contentChainState(chain as ContentChainIdentity, records), records };
}

/** Signs a content op with one of `operation.did`'s keys (kid `did#keyId`). Validates first. */
export function signContentOperation(
  operation: ContentOperation,
  signer: KeySigner,
  options: { brand?: ProtocolBrand } = {},
): { jws: string; cid: string } {
  const brand = options.brand ?? PLAT_BRAND;
  validateContentOperation(operation as unknown as JsonObject, brand);
  const { cid } = cidOfEncoded(dagCborCanonicalEncode(operation));
  const jws = signJws(
    { typ: typFor('content-op', brand), kid: didUrl(operation.did, signer.keyId), cid },
    operation,
    signer,
  );
  return { jws, cid };
}

/** CID of a document (a flat content object), as committed by documentCID. */
export function documentCid(document: object): string {
  return cidOfEncoded(dagCborCanonicalEncode(document)).cid;
}
