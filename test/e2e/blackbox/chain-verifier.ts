import * as dagCbor from '@ipld/dag-cbor';
import { base58btc } from 'multiformats/bases/base58';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';
import { createHash, createPublicKey, verify } from 'node:crypto';

/**
 * An independent DFOS chain verifier for the black-box client (issue 35, "verifies exported chains
 * with its own protocol code"). Written from the protocol's prose only (/work/shared/spec/protocol:
 * PROTOCOL.md "Verification", "Signature Verification Profile", "CID Construction", "Timestamp
 * Grammar"; DID-METHOD.md §3.2; CREDENTIALS.md for delegated writes) with general libraries: it
 * imports nothing of the service's protocol code.
 */

export class ChainInvalid extends Error {}

/**
 * The brand word: the protocol's own (`did:dfos:`, its vectors) or the service's renaming of it
 * (design.md §0: `did:plat:`, typ `did:plat:*`, `PlatCredential`; CIDs and DID suffixes unchanged).
 */
export interface Brand {
  method: string;
  credentialType: string;
}
export const DFOS: Brand = { method: 'dfos', credentialType: 'DFOSCredential' };
export const PLAT: Brand = { method: 'plat', credentialType: 'PlatCredential' };

function fail(message: string): never {
  throw new ChainInvalid(message);
}

const ALPHABET = '2346789acdefhknrtvz';
const ID = /^[2346789acdefhknrtvz]{31}$/;
const DAG_CBOR = 0x71;
const SHA2_256 = 0x12;
const ED25519_ORDER = (1n << 252n) + 27742317777372353535851937790883648493n;
const OPERATION_CAP = 65_536;

export interface Multikey {
  id: string;
  type: string;
  publicKeyMultibase: string;
}

export interface IdentityState {
  did: string;
  isDeleted: boolean;
  authKeys: Multikey[];
  assertKeys: Multikey[];
  controllerKeys: Multikey[];
  headCid: string;
  length: number;
}

export interface ContentState {
  contentId: string;
  creatorDid: string;
  genesisCid: string;
  headCid: string;
  isDeleted: boolean;
  currentDocumentCID: string | null;
  length: number;
}

/** Resolves a DID to its verified identity state (the content chain's key resolver). */
export type IdentityResolver = (did: string) => IdentityState | undefined;

function sha256(bytes: Uint8Array): Buffer {
  return createHash('sha256').update(bytes).digest();
}

function base64urlDecode(segment: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(segment)) fail('not base64url');
  return Buffer.from(segment, 'base64url');
}

/** Numbers must be safe integers (PROTOCOL.md "Number bounds"); everything else is JSON's. */
function checkCanonicalizable(value: unknown, depth = 0): void {
  if (depth > 1024) fail('nesting too deep');
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) fail(`non-canonical number ${value}`);
  } else if (Array.isArray(value)) {
    for (const item of value) checkCanonicalizable(item, depth + 1);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) checkCanonicalizable(item, depth + 1);
  }
}

/** dag-cbor canonical encoding → SHA-256 → CIDv1 (base32lower). */
export function cidOf(payload: unknown): { cid: string; bytes: Uint8Array; size: number } {
  checkCanonicalizable(payload);
  const encoded = dagCbor.encode(payload);
  const cid = CID.createV1(DAG_CBOR, Digest.create(SHA2_256, sha256(encoded)));
  return { cid: cid.toString(), bytes: cid.bytes, size: encoded.length };
}

/** DID-METHOD.md §3.2: SHA-256 of the CID's bytes, the first 31 bytes through the 19-letter alphabet. */
export function idOfCid(cidBytes: Uint8Array): string {
  const digest = sha256(cidBytes);
  let id = '';
  for (let i = 0; i < 31; i += 1) id += ALPHABET[digest[i] % 19];
  return id;
}

export function decodeMultikey(multibase: string): Buffer {
  if (!multibase.startsWith('z')) fail('multikey without the z prefix');
  const bytes = Buffer.from(base58btc.decode(multibase));
  if (bytes.length !== 34 || bytes[0] !== 0xed || bytes[1] !== 0x01) fail('not an ed25519-pub multikey');
  return bytes.subarray(2);
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{3}Z$/;

/** PROTOCOL.md "Timestamp Grammar": fixed width, UTC `Z`, a real calendar instant, no leap second. */
export function checkTimestamp(value: unknown): string {
  if (typeof value !== 'string') fail('createdAt not a string');
  const match = TIMESTAMP.exec(value);
  if (!match) fail(`createdAt ${value} outside the grammar`);
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  const daysIn = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysIn || hour > 23 || minute > 59 || second > 59) {
    fail(`createdAt ${value} not a real instant`);
  }
  return value;
}

interface Decoded {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: Buffer;
  signature: Buffer;
  cid: string;
  cidBytes: Uint8Array;
}

/** Splits a compact JWS, applies the signature profile's header rules and the `cid` header check. */
export function decodeJws(token: string, typ: string): Decoded {
  if (typeof token !== 'string') fail('token not a string');
  const parts = token.split('.');
  if (parts.length !== 3) fail('not a compact JWS');
  const header = JSON.parse(base64urlDecode(parts[0]).toString('utf8')) as Record<string, unknown>;
  const payload = JSON.parse(base64urlDecode(parts[1]).toString('utf8')) as Record<string, unknown>;
  if (header === null || typeof header !== 'object' || Array.isArray(header)) fail('header not an object');
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    fail('payload not an object');
  if (header.alg !== 'EdDSA') fail(`alg ${String(header.alg)}`);
  for (const member of ['crit', 'jwk', 'x5c']) if (member in header) fail(`header carries ${member}`);
  if (header.typ !== typ) fail(`typ ${String(header.typ)} where ${typ} was expected`);
  if (typeof header.kid !== 'string' || header.kid === '') fail('no kid');
  const signature = base64urlDecode(parts[2]);
  const derived = cidOf(payload);
  if (typeof header.cid !== 'string') fail('no cid header');
  if (header.cid !== derived.cid) fail(`cid header ${header.cid} is not the payload's ${derived.cid}`);
  return {
    header,
    payload,
    signingInput: Buffer.from(`${parts[0]}.${parts[1]}`, 'utf8'),
    signature,
    cid: derived.cid,
    cidBytes: derived.bytes,
  };
}

/** Ed25519 over the signing input, with the profile's 64-byte and canonical-S rules. */
export function checkSignature(decoded: Pick<Decoded, 'signature' | 'signingInput'>, rawKey: Buffer): void {
  const { signature } = decoded;
  if (signature.length !== 64) fail('signature not 64 bytes');
  let s = 0n;
  for (let i = 63; i >= 32; i -= 1) s = (s << 8n) | BigInt(signature[i]);
  if (s >= ED25519_ORDER) fail('non-canonical signature scalar');
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: rawKey.toString('base64url') },
    format: 'jwk',
  });
  if (!verify(null, decoded.signingInput, key, signature)) fail('bad signature');
}

function keySet(value: unknown, name: string): Multikey[] {
  if (!Array.isArray(value) || value.length > 256) fail(`${name} not a key list`);
  const ids = new Set<string>();
  for (const key of value as Multikey[]) {
    if (
      key?.type !== 'Multikey' ||
      typeof key.id !== 'string' ||
      typeof key.publicKeyMultibase !== 'string'
    ) {
      fail(`${name} entry not a Multikey`);
    }
    if (ids.has(key.id)) fail(`${name} repeats ${key.id}`);
    ids.add(key.id);
    decodeMultikey(key.publicKeyMultibase);
  }
  return value as Multikey[];
}

function splitKid(kid: string, brand: Brand): { did: string; keyId: string } {
  const hash = kid.indexOf('#');
  if (hash < 0) fail(`kid ${kid} not a DID URL`);
  const did = kid.slice(0, hash);
  const prefix = `did:${brand.method}:`;
  if (!did.startsWith(prefix) || !ID.test(did.slice(prefix.length))) fail(`kid DID ${did} malformed`);
  return { did, keyId: kid.slice(hash + 1) };
}

function keyIn(keys: Multikey[], keyId: string): Buffer {
  const key = keys.find((candidate) => candidate.id === keyId);
  if (!key) fail(`key ${keyId} not in the current state`);
  return decodeMultikey(key.publicKeyMultibase);
}

function checkCommon(decoded: Decoded): void {
  if (decoded.payload.version !== 1) fail('version is not 1');
  const { authorization, ...rest } = decoded.payload;
  void authorization;
  if (cidOf(rest).size > OPERATION_CAP) fail('operation over the size cap');
}

/** PROTOCOL.md "Verification → Identity Chain": strictly linear, controller-signed, delete ⇄ restore. */
export function verifyIdentityChain(
  tokens: readonly string[],
  expectedDid?: string,
  brand: Brand = DFOS,
): IdentityState {
  if (tokens.length === 0) fail('empty identity chain');
  let state: IdentityState | undefined;
  let lastCreatedAt = '';
  let lastType = '';
  for (const [index, token] of tokens.entries()) {
    const op = decodeJws(token, `did:${brand.method}:identity-op`);
    checkCommon(op);
    const { payload, header } = op;
    const createdAt = checkTimestamp(payload.createdAt);
    const type = payload.type;
    if (index === 0) {
      if (type !== 'create') fail('genesis is not a create');
      if ('previousOperationCID' in payload) fail('genesis with a predecessor');
      const controllerKeys = keySet(payload.controllerKeys, 'controllerKeys');
      if (controllerKeys.length === 0) fail('genesis without a controller key');
      const kid = header.kid as string;
      if (kid.includes('#')) fail('genesis kid is not a bare key id');
      checkSignature(op, keyIn(controllerKeys, kid));
      const did = `did:${brand.method}:${idOfCid(op.cidBytes)}`;
      if (expectedDid !== undefined && did !== expectedDid) fail(`chain derives ${did}, not ${expectedDid}`);
      state = {
        did,
        isDeleted: false,
        authKeys: keySet(payload.authKeys, 'authKeys'),
        assertKeys: keySet(payload.assertKeys, 'assertKeys'),
        controllerKeys,
        headCid: op.cid,
        length: 1,
      };
    } else {
      const current = state!;
      if (payload.previousOperationCID !== current.headCid) fail('previousOperationCID is not the head');
      if (!(createdAt > lastCreatedAt)) fail('createdAt not after its parent');
      if (current.isDeleted && type !== 'restore') fail(`${String(type)} after a delete`);
      if (type === 'restore' && lastType !== 'delete') fail('restore whose parent is not a delete');
      const { did, keyId } = splitKid(header.kid as string, brand);
      if (did !== current.did) fail('kid names another DID');
      checkSignature(op, keyIn(current.controllerKeys, keyId));
      if (type === 'update') {
        const controllerKeys = keySet(payload.controllerKeys, 'controllerKeys');
        if (controllerKeys.length === 0) fail('update without a controller key');
        current.authKeys = keySet(payload.authKeys, 'authKeys');
        current.assertKeys = keySet(payload.assertKeys, 'assertKeys');
        current.controllerKeys = controllerKeys;
      } else if (type === 'delete') {
        current.isDeleted = true;
      } else if (type === 'restore') {
        current.isDeleted = false;
      } else {
        fail(`identity operation type ${String(type)}`);
      }
      current.headCid = op.cid;
      current.length += 1;
    }
    lastCreatedAt = createdAt;
    lastType = type as string;
  }
  return state!;
}

/**
 * A delegated content write's credential (CREDENTIALS.md): issued by the chain's creator to the
 * signer, write on this chain (or `chain:*`), valid at the operation's createdAt. Only direct
 * grants (no `prf`); a delegation chain is refused rather than trusted unchecked.
 */
function checkAuthorization(
  token: unknown,
  creatorDid: string,
  signerDid: string,
  contentId: string,
  createdAt: string,
  resolve: IdentityResolver,
  brand: Brand,
): void {
  if (typeof token !== 'string') fail('delegated write without an authorization');
  if (token.length > 262_144) fail('credential over its cap');
  const credential = decodeJws(token, `did:${brand.method}:credential`);
  const claims = credential.payload;
  if (claims.version !== 1 || claims.type !== brand.credentialType) fail('not a DFOS credential');
  if (claims.iss !== creatorDid) fail('credential not issued by the chain creator');
  if (claims.aud !== signerDid && claims.aud !== '*') fail('credential for another audience');
  if (!Array.isArray(claims.prf) || claims.prf.length > 0) fail('delegation chains are not checked here');
  const at = Math.floor(Date.parse(createdAt) / 1000);
  if (!(
    typeof claims.iat === 'number' &&
    typeof claims.exp === 'number' &&
    claims.iat <= at &&
    at < claims.exp
  )) {
    fail('credential not valid at createdAt');
  }
  const grants = claims.att as { resource: string; action: string }[];
  const covers = grants.some(
    (grant) =>
      (grant.resource === `chain:${contentId}` || grant.resource === 'chain:*') &&
      grant.action
        .split(',')
        .map((action) => action.trim())
        .includes('write'),
  );
  if (!covers) fail('credential does not grant write on this chain');
  const { did, keyId } = splitKid(credential.header.kid as string, brand);
  if (did !== creatorDid) fail('credential kid is not the issuer');
  const issuer = resolve(did);
  if (!issuer || issuer.isDeleted) fail('credential issuer unresolved');
  checkSignature(credential, keyIn(issuer.assertKeys, keyId));
}

/**
 * PROTOCOL.md "Verification → Content Chain": a DAG rooted at one create, each operation after
 * its parent in the list, signed by the key its kid names in the signer's current identity state
 * (assertKeys, DID-METHOD.md §4.2), delete terminal per branch, the head by head selection.
 */
export function verifyContentChain(
  tokens: readonly string[],
  resolve: IdentityResolver,
  brand: Brand = DFOS,
): ContentState {
  if (tokens.length === 0) fail('empty content chain');
  const ops = new Map<string, { createdAt: string; type: string; documentCID: string | null }>();
  const parents = new Set<string>();
  let genesis: { cid: string; did: string; contentId: string } | undefined;
  for (const [index, token] of tokens.entries()) {
    const op = decodeJws(token, `did:${brand.method}:content-op`);
    checkCommon(op);
    const { payload, header } = op;
    const createdAt = checkTimestamp(payload.createdAt);
    const { did, keyId } = splitKid(header.kid as string, brand);
    if (payload.did !== did) fail('payload did is not the kid DID');
    const type = payload.type as string;
    if (!['create', 'update', 'delete'].includes(type)) fail(`content operation type ${type}`);
    if (ops.has(op.cid)) fail('operation repeated');
    if (index === 0) {
      if (type !== 'create') fail('genesis is not a create');
      genesis = { cid: op.cid, did, contentId: idOfCid(op.cidBytes) };
    } else {
      if (type === 'create') fail('a second create');
      const parent = ops.get(payload.previousOperationCID as string);
      if (!parent) fail('previousOperationCID names no earlier operation');
      if (parent.type === 'delete') fail('an operation after a delete');
      if (!(createdAt > parent.createdAt)) fail('createdAt not after its parent');
      parents.add(payload.previousOperationCID as string);
      if (did !== genesis!.did) {
        checkAuthorization(
          payload.authorization,
          genesis!.did,
          did,
          genesis!.contentId,
          createdAt,
          resolve,
          brand,
        );
      }
    }
    for (const field of type === 'delete' ? [] : (['documentCID', 'baseDocumentCID'] as const)) {
      if (!(field in payload)) fail(`${field} missing (PROTOCOL.md: string | null, not optional)`);
      const value = payload[field];
      if (value !== null && (typeof value !== 'string' || CID.parse(value).toString() !== value)) {
        fail(`${field} not a CID or null`);
      }
    }
    if (type === 'create' && typeof payload.documentCID !== 'string') fail('create without a document');
    const signer = resolve(did);
    if (!signer) fail(`signer ${did} unresolved`);
    checkSignature(op, keyIn(signer.assertKeys, keyId));
    ops.set(op.cid, {
      createdAt,
      type,
      documentCID: type === 'delete' ? null : ((payload.documentCID as string | null) ?? null),
    });
  }
  const tips = [...ops.entries()].filter(([cid]) => !parents.has(cid));
  tips.sort(([cidA, a], [cidB, b]) =>
    a.createdAt !== b.createdAt ? (a.createdAt > b.createdAt ? -1 : 1) : cidA > cidB ? -1 : 1,
  );
  const [headCid, head] = tips[0];
  return {
    contentId: genesis!.contentId,
    creatorDid: genesis!.did,
    genesisCid: genesis!.cid,
    headCid,
    isDeleted: head.type === 'delete',
    currentDocumentCID: head.documentCID,
    length: ops.size,
  };
}
