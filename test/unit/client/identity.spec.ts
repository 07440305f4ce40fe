import {
  heldKey,
  IdentityError,
  PlatIdentity,
  signAddKeyOperation,
  signRemoveKeyOperation,
} from '../../../src/protocol/client';
import {
  base64urlDecode,
  generateKeySigner,
  multikeyEntry,
  verifyIdentityChain,
} from '../../../src/protocol/core';
import { NOW, rawSegment, segment } from './helpers';

const DID_PATTERN = /^did:plat:[2346789acdefhknrtvz]{31}$/;
let tick = 0;
/** A clock that moves one second per reading, so consecutive ops are ordered. */
const movingClock = () => new Date(NOW.getTime() + 1000 * tick++);

describe('identities', () => {
  it('creates a controller key and an auth key and a genesis the library verifies', () => {
    const identity = PlatIdentity.create({ clock: movingClock });
    expect(identity.did).toMatch(DID_PATTERN);
    expect(identity.log).toHaveLength(1);

    const { state } = verifyIdentityChain(identity.log, { expectedDid: identity.did, now: NOW });
    expect(state.did).toBe(identity.did);
    expect(state.controllerKeys).toHaveLength(1);
    expect(state.authKeys).toHaveLength(1);
    expect(state.assertKeys).toHaveLength(0);
    expect(state.controllerKeys[0].id).not.toBe(state.authKeys[0].id);

    const header = segment(identity.genesis, 0);
    expect(header).toEqual({
      alg: 'EdDSA',
      typ: 'did:plat:identity-op',
      kid: state.controllerKeys[0].id,
      cid: identity.headCid,
    });
    expect(segment(identity.genesis, 1)).toMatchObject({ version: 1, type: 'create' });
  });

  it('adds an assert key when asked', () => {
    const identity = PlatIdentity.create({ assert: true, clock: movingClock });
    expect(identity.state.assertKeys).toHaveLength(1);
    expect(identity.heldKeys().map(({ roles }) => roles)).toEqual([['controller'], ['auth'], ['assert']]);
  });

  it('gives every identity its own DID', () => {
    expect(PlatIdentity.create().did).not.toBe(PlatIdentity.create().did);
  });

  describe('key updates', () => {
    it('adds and removes keys with controller-signed updates that extend the head', () => {
      const identity = PlatIdentity.create({ clock: movingClock });
      const genesisCid = identity.headCid;
      const added = identity.addKey(['auth', 'assert'], { clock: movingClock });
      expect(added.operation.previousOperationCID).toBe(genesisCid);
      expect(rawSegment(added.jws, 0)).toContain(`"kid":"${identity.did}#`);
      expect(identity.headCid).toBe(added.cid);
      const addedId = (added.key as { keyId: string }).keyId;
      expect(identity.state.authKeys.map((key) => key.id)).toContain(addedId);
      expect(identity.state.assertKeys.map((key) => key.id)).toEqual([addedId]);

      const oldAuth = identity.state.authKeys[0].id;
      const removed = identity.removeKey(oldAuth, { clock: movingClock });
      expect(removed.operation.previousOperationCID).toBe(added.cid);
      expect(identity.state.authKeys.map((key) => key.id)).toEqual([addedId]);
      expect(identity.authKey.keyId).toBe(addedId);

      const { state } = verifyIdentityChain(identity.log, { expectedDid: identity.did });
      expect(state.headCid).toBe(identity.headCid);
      expect(identity.log).toHaveLength(3);
    });

    it('signs an update from a given state (e.g. the relay head) without holding the log', () => {
      const identity = PlatIdentity.create({ clock: movingClock });
      const controller = identity.signerFor('controller');
      const other = generateKeySigner();
      const add = signAddKeyOperation(
        identity.state,
        { key: multikeyEntry(other), roles: ['auth'] },
        controller,
        {
          clock: movingClock,
        },
      );
      identity.append(add.jws);
      const remove = signRemoveKeyOperation(identity.state, other.keyId, controller, { clock: movingClock });
      identity.append(remove.jws);
      expect(verifyIdentityChain(identity.log).state.authKeys).toHaveLength(1);
    });

    it('keeps services across updates (an update carries the full set)', () => {
      const services = [{ id: 'relay', type: 'PlatRelay', endpoint: 'https://relay.example' }];
      const identity = PlatIdentity.create({ services, clock: movingClock });
      identity.addKey(['assert'], { clock: movingClock });
      expect(identity.state.services).toEqual(services);
    });

    it('refuses to remove the last controller key or the last held controller', () => {
      const identity = PlatIdentity.create({ clock: movingClock });
      const controllerId = identity.signerFor('controller').keyId;
      expect(() => identity.removeKey(controllerId)).toThrow(IdentityError);

      const foreign = generateKeySigner();
      identity.addKey(['controller'], { key: multikeyEntry(foreign), clock: movingClock });
      expect(() => identity.removeKey(controllerId, { clock: movingClock })).toThrow(/no controller key/);
      identity.removeKey(controllerId, { clock: movingClock, force: true });
      expect(() => identity.signerFor('controller')).toThrow(IdentityError);
    });

    it('refuses an unknown key and a key id naming another key', () => {
      const identity = PlatIdentity.create({ clock: movingClock });
      expect(() => identity.removeKey('key_unknown')).toThrow(IdentityError);
      const clash = { ...multikeyEntry(generateKeySigner()), id: identity.authKey.keyId };
      expect(() => identity.addKey(['auth'], { key: clash })).toThrow(/another key/);
    });

    it('deletes and restores with controller-signed operations; a deleted identity takes only a restore', () => {
      const identity = PlatIdentity.create({ clock: movingClock });
      const keys = identity.state.authKeys;
      const deletion = identity.delete({ clock: movingClock });
      expect(identity.headCid).toBe(deletion.cid);
      expect(identity.state.isDeleted).toBe(true);
      expect(() => identity.addKey(['assert'], { clock: movingClock })).toThrow(/deleted/);
      expect(() => identity.delete({ clock: movingClock })).toThrow(/deleted/);
      identity.restore({ clock: movingClock });
      expect(identity.state.isDeleted).toBe(false);
      expect(identity.state.authKeys).toEqual(keys);
      expect(() => identity.restore({ clock: movingClock })).toThrow(/restore must directly follow a delete/);
      expect(verifyIdentityChain(identity.log, { expectedDid: identity.did }).state).toEqual(identity.state);
    });

    it('adopts a longer log that extends its own, and refuses one that does not', () => {
      const identity = PlatIdentity.create({ clock: movingClock });
      const copy = PlatIdentity.fromKeyFile(identity.toKeyFile());
      identity.addKey(['assert'], { clock: movingClock });
      expect(copy.adoptLog(identity.log)).toBe(1);
      expect(copy.headCid).toBe(identity.headCid);
      expect(() => copy.adoptLog(PlatIdentity.create().log)).toThrow(IdentityError);
    });
  });

  describe('key file JSON', () => {
    it('round-trips keys, log and account', () => {
      const identity = PlatIdentity.create({ assert: true, clock: movingClock });
      identity.addKey(['auth'], { clock: movingClock });
      const file = identity.toKeyFile({ account: { api: 'http://x', handle: 'alice' } });
      expect(file).toMatchObject({ format: 'plat-keys', version: 1, did: identity.did });
      expect(file.keys).toHaveLength(4);
      for (const key of file.keys) expect(base64urlDecode(key.privateKey)).toHaveLength(32);

      const restored = PlatIdentity.fromKeyFile(JSON.parse(JSON.stringify(file)));
      expect(restored.did).toBe(identity.did);
      expect(restored.headCid).toBe(identity.headCid);
      expect(restored.authKey.keyId).toBe(identity.authKey.keyId);
      expect(restored.toKeyFile()).toEqual(identity.toKeyFile());
    });

    it('refuses a file whose private key does not match, or whose log names another DID', () => {
      const identity = PlatIdentity.create();
      const file = identity.toKeyFile();
      const swapped = {
        ...file,
        keys: [{ ...file.keys[0], privateKey: file.keys[1].privateKey }, file.keys[1]],
      };
      expect(() => PlatIdentity.fromKeyFile(swapped)).toThrow(/does not match/);
      expect(() => PlatIdentity.fromKeyFile({ ...file, did: PlatIdentity.create().did })).toThrow(
        /does not verify/,
      );
      expect(() => PlatIdentity.fromKeyFile({ ...file, version: 2 })).toThrow(IdentityError);
      expect(() => PlatIdentity.fromKeyFile(null)).toThrow(IdentityError);
    });

    it('holds keys under their chain ids', () => {
      const key = heldKey(new Uint8Array(32).fill(7), 'key_custom');
      expect(key.keyId).toBe('key_custom');
    });
  });
});
