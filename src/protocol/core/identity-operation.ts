import { PLAT_BRAND, type ProtocolBrand } from './brand';
import { isDagCborCid } from './cid';
import { dagCborCanonicalEncode, type JsonObject, type JsonValue } from './encoding';
import { ensure, ProtocolError } from './errors';
import { ID_PATTERN } from './ids';
import { MAX_KEYS_PER_SET, MAX_SERVICES, MAX_SERVICES_BYTES } from './limits';
import { decodeEd25519Multikey, type MultikeyPublicKey } from './multikey';
import { assertCreatedAt } from './timestamp';

/** An identity's discovery entry: `{id, type, …}`; unknown types are preserved verbatim. */
export interface ServiceEntry {
  id: string;
  type: string;
  [field: string]: JsonValue;
}

export interface IdentityKeySets {
  authKeys: MultikeyPublicKey[];
  assertKeys: MultikeyPublicKey[];
  controllerKeys: MultikeyPublicKey[];
}

export interface IdentityCreateOperation extends IdentityKeySets {
  version: 1;
  type: 'create';
  services?: ServiceEntry[];
  createdAt: string;
}

export interface IdentityUpdateOperation extends IdentityKeySets {
  version: 1;
  type: 'update';
  previousOperationCID: string;
  /** full state: replaces the prior set; omitted = cleared */
  services?: ServiceEntry[];
  createdAt: string;
}

export interface IdentityDeleteOperation {
  version: 1;
  type: 'delete';
  previousOperationCID: string;
  createdAt: string;
}

/** Valid only as the immediate successor of a delete. */
export interface IdentityRestoreOperation {
  version: 1;
  type: 'restore';
  previousOperationCID: string;
  createdAt: string;
}

export type IdentityOperation =
  IdentityCreateOperation | IdentityUpdateOperation | IdentityDeleteOperation | IdentityRestoreOperation;

const CONTENT_ANCHOR_TYPE = 'ContentAnchor';

/**
 * Structural validation of an identity-op payload. Unknown top-level members are ignored (the
 * protocol's MUST-ignore-unknown rule) but still committed by the CID and counted by the size cap.
 */
export function validateIdentityOperation(
  payload: JsonObject,
  brand: ProtocolBrand = PLAT_BRAND,
): IdentityOperation {
  ensure(payload.version === 1, 'MALFORMED', 'identity operation version must be 1');
  assertCreatedAt(payload.createdAt);
  const type = payload.type;
  if (type === 'create' || type === 'update') {
    if (type === 'update') assertPreviousCid(payload);
    const keys = validateKeySets(payload);
    ensure(
      keys.controllerKeys.length >= 1,
      'MALFORMED',
      `identity ${type} needs at least one controller key`,
    );
    if (payload.services !== undefined) validateServices(payload.services, brand);
    return payload as unknown as IdentityOperation;
  }
  if (type === 'delete' || type === 'restore') {
    assertPreviousCid(payload);
    return payload as unknown as IdentityOperation;
  }
  throw new ProtocolError('MALFORMED', `unknown identity operation type: ${String(type)}`);
}

function assertPreviousCid(payload: JsonObject): void {
  ensure(
    isDagCborCid(payload.previousOperationCID),
    'MALFORMED',
    'previousOperationCID must be a dag-cbor CID',
  );
}

function validateKeySets(payload: JsonObject): IdentityKeySets {
  // One id must mean one key in a given op, otherwise `did#keyId` would be ambiguous across roles.
  const byId = new Map<string, string>();
  for (const set of ['authKeys', 'assertKeys', 'controllerKeys'] as const) {
    const keys = payload[set];
    ensure(Array.isArray(keys), 'MALFORMED', `${set} must be an array`);
    ensure(keys.length <= MAX_KEYS_PER_SET, 'TOO_LARGE', `${set} holds more than ${MAX_KEYS_PER_SET} keys`);
    const seen = new Set<string>();
    for (const key of keys) {
      const entry = validateMultikeyEntry(key, set);
      ensure(!seen.has(entry.id), 'MALFORMED', `${set} repeats key id ${entry.id}`);
      seen.add(entry.id);
      const known = byId.get(entry.id);
      ensure(
        known === undefined || known === entry.publicKeyMultibase,
        'MALFORMED',
        `key id ${entry.id} names two different keys`,
      );
      byId.set(entry.id, entry.publicKeyMultibase);
    }
  }
  return payload as unknown as IdentityKeySets;
}

function validateMultikeyEntry(value: JsonValue, set: string): MultikeyPublicKey {
  ensure(isObject(value), 'MALFORMED', `${set} entries must be objects`);
  ensure(
    typeof value.id === 'string' && value.id.length > 0,
    'MALFORMED',
    `${set} entry needs a non-empty id`,
  );
  ensure(value.type === 'Multikey', 'MALFORMED', `${set} entry type must be "Multikey"`);
  ensure(typeof value.publicKeyMultibase === 'string', 'MALFORMED', `${set} entry needs publicKeyMultibase`);
  decodeEd25519Multikey(value.publicKeyMultibase);
  return value as unknown as MultikeyPublicKey;
}

/**
 * Services (PROTOCOL.md "Services"): ≤256 entries, unique non-empty ids, non-empty type, the
 * recognized types structurally checked, and ≤32768 bytes of dag-cbor. Other types are kept as-is.
 */
export function validateServices(value: JsonValue, brand: ProtocolBrand = PLAT_BRAND): ServiceEntry[] {
  ensure(Array.isArray(value), 'MALFORMED', 'services must be an array');
  ensure(value.length <= MAX_SERVICES, 'TOO_LARGE', `services holds more than ${MAX_SERVICES} entries`);
  const ids = new Set<string>();
  for (const entry of value) {
    ensure(isObject(entry), 'MALFORMED', 'service entries must be objects');
    ensure(isNonEmptyString(entry.id), 'MALFORMED', 'service entry needs a non-empty id');
    ensure(isNonEmptyString(entry.type), 'MALFORMED', 'service entry needs a non-empty type');
    ensure(!ids.has(entry.id), 'MALFORMED', `service id ${entry.id} is repeated`);
    ids.add(entry.id);
    if (entry.type === brand.relayServiceType) {
      ensure(
        isNonEmptyString(entry.endpoint),
        'MALFORMED',
        `${entry.type} service needs a non-empty endpoint`,
      );
    } else if (entry.type === CONTENT_ANCHOR_TYPE) {
      ensure(isNonEmptyString(entry.label), 'MALFORMED', 'ContentAnchor service needs a non-empty label');
      ensure(
        typeof entry.anchor === 'string' && (ID_PATTERN.test(entry.anchor) || isDagCborCid(entry.anchor)),
        'MALFORMED',
        'ContentAnchor anchor must be a contentId or a bafyrei CID',
      );
    }
  }
  ensure(
    dagCborCanonicalEncode(value).length <= MAX_SERVICES_BYTES,
    'TOO_LARGE',
    `services exceed ${MAX_SERVICES_BYTES} bytes of dag-cbor`,
  );
  return value as ServiceEntry[];
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: JsonValue | undefined): value is string {
  return typeof value === 'string' && value.length > 0;
}
