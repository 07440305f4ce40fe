import {
  applyIdentityOperation,
  base64urlDecode,
  base64urlEncode,
  createKeySigner,
  findKey,
  generateKeySigner,
  keyRoles,
  keysInRole,
  multikeyEntry,
  nextCreatedAt,
  nowCreatedAt,
  ProtocolError,
  signIdentityOperation,
  systemClock,
  verifyIdentityChain,
  type Clock,
  type IdentityState,
  type IdentityUpdateOperation,
  type KeyRole,
  type KeySigner,
  type MultikeyPublicKey,
  type ServiceEntry,
} from '../core';

/** A key this client holds: the signer plus the 32-byte seed it was made from. */
export type HeldKey = KeySigner & { readonly privateKey: Uint8Array };

/** What a request proof needs from an identity: its DID and a key of its `authKeys`. */
export interface ProofIdentity {
  readonly did: string;
  readonly authKey: KeySigner;
}

export interface SignedIdentityOperation {
  readonly jws: string;
  readonly cid: string;
  readonly operation: IdentityUpdateOperation;
}

/** Thrown for misuse the protocol library would not catch (unknown key, lock-out, bad key file). */
export class IdentityError extends Error {
  override readonly name = 'IdentityError';
}

export function heldKey(privateKey: Uint8Array, keyId?: string): HeldKey {
  return { ...createKeySigner(privateKey, keyId), privateKey };
}

/** Role sets in the fixed order auth, assert, controller. */
const ROLE_ORDER: readonly KeyRole[] = ['auth', 'assert', 'controller'];

function roleSet(roles: readonly KeyRole[]): KeyRole[] {
  const unique = ROLE_ORDER.filter((role) => roles.includes(role));
  if (unique.length === 0) throw new IdentityError('a key needs at least one role');
  return unique;
}

function updateFrom(state: IdentityState, createdAt: string): IdentityUpdateOperation {
  return {
    version: 1,
    type: 'update',
    previousOperationCID: state.headCid,
    authKeys: [...state.authKeys],
    assertKeys: [...state.assertKeys],
    controllerKeys: [...state.controllerKeys],
    // An update carries the full service set: omitting it would clear the services.
    ...(state.services.length > 0 ? { services: [...state.services] } : {}),
    createdAt,
  };
}

function setFor(operation: IdentityUpdateOperation, role: KeyRole): MultikeyPublicKey[] {
  return role === 'auth'
    ? operation.authKeys
    : role === 'assert'
      ? operation.assertKeys
      : operation.controllerKeys;
}

/**
 * Signs an identity update extending `state` (the current head) that adds `key` to `roles`. A key
 * already present keeps its other roles; re-adding it to a role it holds changes nothing there.
 */
export function signAddKeyOperation(
  state: IdentityState,
  input: { key: MultikeyPublicKey | KeySigner; roles: readonly KeyRole[] },
  controller: KeySigner,
  options: { clock?: Clock } = {},
): SignedIdentityOperation {
  const entry = 'sign' in input.key ? multikeyEntry(input.key) : { ...input.key };
  const existing = findKey(state, entry.id);
  if (existing && existing.publicKeyMultibase !== entry.publicKeyMultibase) {
    throw new IdentityError(`key id ${entry.id} already names another key of ${state.did}`);
  }
  const operation = updateFrom(state, nextCreatedAt(state.lastCreatedAt, options.clock ?? systemClock));
  for (const role of roleSet(input.roles)) {
    const set = setFor(operation, role);
    if (!set.some((key) => key.id === entry.id)) set.push(entry);
  }
  return signUpdate(state, operation, controller);
}

/** Signs an identity update extending `state` that removes the key from every role it holds. */
export function signRemoveKeyOperation(
  state: IdentityState,
  keyId: string,
  controller: KeySigner,
  options: { clock?: Clock } = {},
): SignedIdentityOperation {
  if (!findKey(state, keyId)) throw new IdentityError(`key ${keyId} is not a key of ${state.did}`);
  const operation = updateFrom(state, nextCreatedAt(state.lastCreatedAt, options.clock ?? systemClock));
  operation.authKeys = operation.authKeys.filter((key) => key.id !== keyId);
  operation.assertKeys = operation.assertKeys.filter((key) => key.id !== keyId);
  operation.controllerKeys = operation.controllerKeys.filter((key) => key.id !== keyId);
  if (operation.controllerKeys.length === 0) {
    throw new IdentityError(`removing ${keyId} would leave ${state.did} without a controller key`);
  }
  return signUpdate(state, operation, controller);
}

function signUpdate(
  state: IdentityState,
  operation: IdentityUpdateOperation,
  controller: KeySigner,
): SignedIdentityOperation {
  if (!keysInRole(state, 'controller').some((key) => key.id === controller.keyId)) {
    throw new IdentityError(`key ${controller.keyId} is not a controller key of ${state.did}`);
  }
  const { jws, cid } = signIdentityOperation(operation, controller, { did: state.did });
  return { jws, cid, operation };
}

/** Key file format (`plat identity` export): JSON, private keys as base64url 32-byte seeds. */
export interface KeyFileJson {
  format: 'plat-keys';
  version: 1;
  did: string;
  keys: Array<{ id: string; publicKeyMultibase: string; privateKey: string }>;
  /** the identity log as this client knows it, genesis first (compact JWS) */
  log: string[];
  /** where the account was claimed, when it was */
  account?: { api: string; handle: string };
  /** the relay the log was last published to, and the head it then had */
  published?: { relayUrl: string; headCid: string };
}

export interface CreateIdentityOptions {
  /** also generate an assert key (default false) */
  assert?: boolean;
  services?: ServiceEntry[];
  clock?: Clock;
}

/**
 * A person's identity as this client holds it: the verified identity log (genesis first) and the
 * private keys it has. Key operations sign an update extending the current head and append it.
 */
export class PlatIdentity implements ProofIdentity {
  private constructor(
    private readonly keys: Map<string, HeldKey>,
    private readonly operations: string[],
    private current: IdentityState,
  ) {}

  /** Generates a controller key and an auth key (and, optionally, an assert key) and signs the genesis. */
  static create(options: CreateIdentityOptions = {}): PlatIdentity {
    const controller = generateKeySigner();
    const auth = generateKeySigner();
    const assert = options.assert ? generateKeySigner() : undefined;
    const { jws } = signIdentityOperation(
      {
        version: 1,
        type: 'create',
        authKeys: [multikeyEntry(auth)],
        assertKeys: assert ? [multikeyEntry(assert)] : [],
        controllerKeys: [multikeyEntry(controller)],
        ...(options.services ? { services: options.services } : {}),
        createdAt: nowCreatedAt(options.clock ?? systemClock),
      },
      controller,
    );
    const held = [controller, auth, ...(assert ? [assert] : [])];
    return PlatIdentity.fromLog([jws], held);
  }

  /** An identity from its log (verified in full) and the private keys held for it. */
  static fromLog(log: readonly string[], keys: readonly HeldKey[], expectedDid?: string): PlatIdentity {
    const { state } = verifyIdentityChain(log, expectedDid ? { expectedDid } : {});
    return new PlatIdentity(new Map(keys.map((key) => [key.keyId, key])), [...log], state);
  }

  static fromKeyFile(json: unknown): PlatIdentity {
    const file = json as Partial<KeyFileJson> | null;
    if (typeof file !== 'object' || file === null || file.format !== 'plat-keys' || file.version !== 1) {
      throw new IdentityError('not a PLAT key file (format "plat-keys", version 1)');
    }
    if (typeof file.did !== 'string' || !Array.isArray(file.keys) || !Array.isArray(file.log)) {
      throw new IdentityError('key file needs did, keys and log');
    }
    const keys = file.keys.map((entry) => {
      if (typeof entry?.id !== 'string' || typeof entry.privateKey !== 'string') {
        throw new IdentityError('key file keys are {id, publicKeyMultibase, privateKey}');
      }
      let key: HeldKey;
      try {
        key = heldKey(base64urlDecode(entry.privateKey, 'private key'), entry.id);
      } catch {
        throw new IdentityError(`key ${entry.id}: the private key is not a base64url 32-byte seed`);
      }
      if (entry.publicKeyMultibase !== undefined && entry.publicKeyMultibase !== key.multikey) {
        throw new IdentityError(`key ${entry.id}: the private key does not match its public key`);
      }
      return key;
    });
    try {
      return PlatIdentity.fromLog(file.log as string[], keys, file.did);
    } catch (error) {
      if (error instanceof ProtocolError) {
        throw new IdentityError(`key file log does not verify: ${error.message}`);
      }
      throw error;
    }
  }

  get did(): string {
    return this.current.did;
  }

  get state(): IdentityState {
    return this.current;
  }

  get headCid(): string {
    return this.current.headCid;
  }

  get log(): readonly string[] {
    return this.operations;
  }

  get genesis(): string {
    return this.operations[0];
  }

  /** Keys this client holds, with the roles each has in the current state (none: removed). */
  heldKeys(): Array<{ key: HeldKey; roles: KeyRole[] }> {
    return [...this.keys.values()].map((key) => ({ key, roles: keyRoles(this.current, key.keyId) }));
  }

  /** The first held key in `role` of the current state. */
  signerFor(role: KeyRole): HeldKey {
    for (const key of keysInRole(this.current, role)) {
      const held = this.keys.get(key.id);
      if (held && held.multikey === key.publicKeyMultibase) return held;
    }
    throw new IdentityError(`no ${role} key of ${this.did} is held in this key file`);
  }

  /** Signs request proofs (design.md §3: writes need a key in `authKeys`). */
  get authKey(): HeldKey {
    return this.signerFor('auth');
  }

  /** Signs credentials and revocations: an assert key when held, else the auth key, else a controller. */
  get issuingKey(): HeldKey {
    for (const role of ['assert', 'auth', 'controller'] as const) {
      try {
        return this.signerFor(role);
      } catch {
        // try the next role
      }
    }
    throw new IdentityError(`no current key of ${this.did} is held in this key file`);
  }

  /**
   * Adds a key (a fresh one unless given) to `roles` with a controller-signed update; the op is
   * appended to the log and returned for publishing.
   */
  addKey(
    roles: readonly KeyRole[],
    options: { key?: HeldKey | MultikeyPublicKey; clock?: Clock } = {},
  ): SignedIdentityOperation & { key: HeldKey | MultikeyPublicKey } {
    const key = options.key ?? generateKeySigner();
    const signed = signAddKeyOperation(this.current, { key, roles }, this.signerFor('controller'), options);
    this.append(signed.jws, options.clock);
    if ('privateKey' in key) this.keys.set(key.keyId, key);
    return { ...signed, key };
  }

  /**
   * Removes a key from every role. Refused when no held key would remain a controller (the identity
   * could never be changed again from this key file) unless `force` is set.
   */
  removeKey(keyId: string, options: { clock?: Clock; force?: boolean } = {}): SignedIdentityOperation {
    const signed = signRemoveKeyOperation(this.current, keyId, this.signerFor('controller'), options);
    const stillControlled = signed.operation.controllerKeys.some(
      (key) => this.keys.get(key.id)?.multikey === key.publicKeyMultibase,
    );
    if (!stillControlled && !options.force) {
      throw new IdentityError(`removing ${keyId} would leave no controller key in this key file`);
    }
    this.append(signed.jws, options.clock);
    return signed;
  }

  /**
   * Deletes the identity (a controller-signed `delete`): only a `restore` may follow. A service
   * that ingests it deactivates the account (docs/decisions/0190-deactivation-follows-the-identity-chain.md).
   */
  delete(options: { clock?: Clock } = {}): { jws: string; cid: string } {
    return this.seal('delete', options.clock);
  }

  /** Restores a deleted identity (a controller-signed `restore`), its keys and services as before. */
  restore(options: { clock?: Clock } = {}): { jws: string; cid: string } {
    return this.seal('restore', options.clock);
  }

  private seal(type: 'delete' | 'restore', clock: Clock = systemClock): { jws: string; cid: string } {
    const createdAt = nextCreatedAt(this.current.lastCreatedAt, clock);
    const signed = signIdentityOperation(
      { version: 1, type, previousOperationCID: this.current.headCid, createdAt },
      this.signerFor('controller'),
      { did: this.did },
    );
    this.append(signed.jws, clock);
    return signed;
  }

  /** Appends an op (signed here or elsewhere, e.g. a key-proof adoption) that extends the head. */
  append(jws: string, clock: Clock = systemClock): void {
    this.current = applyIdentityOperation(this.current, jws, { now: clock() }).state;
    this.operations.push(jws);
  }

  /**
   * Adopts a longer log from a relay when it extends ours (same genesis and prefix) and verifies.
   * Returns the number of operations gained.
   */
  adoptLog(remote: readonly string[]): number {
    if (remote.length < this.operations.length || this.operations.some((op, i) => remote[i] !== op)) {
      throw new IdentityError('the remote log does not extend the local one');
    }
    const { state } = verifyIdentityChain(remote, { expectedDid: this.did });
    const gained = remote.length - this.operations.length;
    this.operations.splice(0, this.operations.length, ...remote);
    this.current = state;
    return gained;
  }

  toKeyFile(extra: Pick<KeyFileJson, 'account' | 'published'> = {}): KeyFileJson {
    return {
      format: 'plat-keys',
      version: 1,
      did: this.did,
      keys: [...this.keys.values()].map((key) => ({
        id: key.keyId,
        publicKeyMultibase: key.multikey,
        privateKey: base64urlEncode(key.privateKey),
      })),
      log: [...this.operations],
      ...(extra.account ? { account: extra.account } : {}),
      ...(extra.published ? { published: extra.published } : {}),
    };
  }
}
