import request, { Response } from 'supertest';
import { Clock } from '../../../src/common/clock/clock';
import {
  base64urlEncode,
  generateKeySigner,
  keyIdFromPublicKey,
  type KeyRole,
  type KeySigner,
} from '../../../src/protocol/core';
import { utf8Encode } from '../../../src/protocol/core/bytes';
import { signAddKeyOperation } from '../../../src/protocol/client';
import { IdentityStateService } from '../../../src/protocol/relay/services/identity-state.service';
import { Actor, publish } from '../../support/actors';
import { bootApp, TestApp } from '../../support/app';
import { ShiftedClock } from '../../support/clock';

const NOT_FOUND_TEXT = '{"code":"E_NOT_FOUND","message":"Not found"}';
const UNKNOWN_CODE_TEXT = '{"error":"unknown or expired code"}';
const NOT_OPEN = 'The key-proof ceremony is not open';
const CODE = /^[2346789acdefhknrtvz]{8}$/;

interface Resolution {
  present: string;
  nonce: string;
  audience: string;
  purpose: string;
  adopts: { did: string; handle: string | null; displayName: string | null };
  roleSet: string;
  prevCID: string;
  expiresAt: string;
  relay: string;
}

/**
 * The key-proof ceremony with real identities: the owner opens it (design.md §10), a tool on
 * another machine resolves it and presents a signed envelope (api-spec.md "Key-proof present
 * request"), the owner adopts it onto the chain or declines. Every state and every 400 rule.
 */
describe('key-proof ceremony (e2e)', () => {
  let t: TestApp;
  const clock = new ShiftedClock();
  const now = () => clock.now();

  beforeAll(async () => {
    t = await bootApp({ override: (builder) => builder.overrideProvider(Clock).useValue(clock) });
  });

  afterAll(async () => {
    await t.close();
  });

  afterEach(() => {
    clock.offsetMs = 0;
  });

  const person = () => Actor.create(t, { clock: now });
  const anonymous = () => request(t.http);

  function timestamp(at: Date = now()): string {
    return `${at.toISOString().slice(0, 19)}Z`;
  }

  /** A compact JWS built by hand, so tests can break any part of it. */
  function jws(header: object, payloadText: string, key: KeySigner): string {
    const h = base64urlEncode(utf8Encode(JSON.stringify(header)));
    const p = base64urlEncode(utf8Encode(payloadText));
    return `${h}.${p}.${base64urlEncode(key.sign(utf8Encode(`${h}.${p}`)))}`;
  }

  function payloadFor(resolution: Resolution, key: KeySigner, overrides: Record<string, string> = {}) {
    return {
      nonce: resolution.nonce,
      audience: resolution.audience,
      did: resolution.adopts.did,
      roleSet: resolution.roleSet,
      prevCID: resolution.prevCID,
      publicKeyMultibase: key.multikey,
      timestamp: timestamp(),
      ...overrides,
    };
  }

  function envelope(resolution: Resolution, key: KeySigner, overrides: Record<string, string> = {}): string {
    return jws(
      { alg: 'EdDSA', typ: 'did:plat:key-add' },
      JSON.stringify(payloadFor(resolution, key, overrides)),
      key,
    );
  }

  async function open(owner: Actor, roleSet?: string): Promise<{ code: string; resolution: Resolution }> {
    const created = await owner.post('/key-proofs', roleSet ? { roleSet } : {});
    expect(created.status).toBe(201);
    const code = (created.body as { code: string }).code;
    return { code, resolution: await resolve(code) };
  }

  async function resolve(code: string): Promise<Resolution> {
    const response = await anonymous().get(`/.well-known/plat-key-proof?code=${code}`);
    expect(response.status).toBe(200);
    return response.body as Resolution;
  }

  function present(code: string, token: string, description?: string): Promise<Response> {
    return anonymous()
      .post('/v1/key-proof/present')
      .send({ code, envelope: token, ...(description !== undefined ? { description } : {}) });
  }

  function status(code: string): Promise<Response> {
    return anonymous().get(`/v1/key-proof/status?code=${code}`);
  }

  function adoptOperation(owner: Actor, key: KeySigner, roles: readonly KeyRole[]) {
    return signAddKeyOperation(owner.identity.state, { key, roles }, owner.identity.signerFor('controller'), {
      clock: now,
    });
  }

  /** A 400 of a key-proof route: E_INVALID_REQUEST, a message, never `details`. */
  function expectRefused(response: Response, message?: string): void {
    expect(response.status).toBe(400);
    expect(Object.keys(response.body as object).sort()).toEqual(['code', 'message']);
    expect(response.body).toMatchObject({ code: 'E_INVALID_REQUEST' });
    if (message) expect((response.body as { message: string }).message).toBe(message);
  }

  function expectNotFound(response: Response): void {
    expect(response.status).toBe(404);
    expect(response.text).toBe(NOT_FOUND_TEXT);
  }

  function expectUnknownCode(response: Response): void {
    expect(response.status).toBe(404);
    expect(response.text).toBe(UNKNOWN_CODE_TEXT);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
  }

  async function chainKeys(did: string) {
    const state = await t.app.get(IdentityStateService).current(did);
    return state!;
  }

  describe('opening and resolving', () => {
    it('opens a ceremony with the default role set and resolves it anonymously', async () => {
      const owner = await person();
      expect((await owner.signUp('keyowner', 'Key Owner')).status).toBe(201);
      const before = now().getTime();
      const created = await owner.post('/key-proofs', {});
      expect(created.status).toBe(201);
      const body = created.body as { code: string; expiresAt: string };
      expect(Object.keys(body).sort()).toEqual(['code', 'expiresAt']);
      expect(body.code).toMatch(CODE);
      const lifetime = Date.parse(body.expiresAt) - before;
      expect(lifetime).toBeGreaterThanOrEqual(600_000 - 1000);
      expect(lifetime).toBeLessThanOrEqual(600_000 + 1000);

      const resolution = await resolve(body.code);
      expect(resolution).toEqual({
        present: `${t.config.publicBaseUrl}/v1/key-proof/present`,
        nonce: expect.any(String) as string,
        audience: t.config.publicHost,
        purpose: 'did:plat:key-add',
        adopts: { did: owner.did, handle: 'keyowner', displayName: 'Key Owner' },
        roleSet: 'auth,assert',
        prevCID: owner.identity.headCid,
        expiresAt: body.expiresAt,
        relay: t.config.relayUrl,
      });

      const record = await owner.get(`/key-proofs/${body.code}`);
      expect(record.status).toBe(200);
      expect(record.body).toEqual({
        code: body.code,
        status: 'pending',
        stale: false,
        roleSet: 'auth,assert',
        prevCID: owner.identity.headCid,
        presented: null,
        expiresAt: body.expiresAt,
      });
      expect((await status(body.code)).body).toEqual({ status: 'pending', stale: false });
    });

    it('takes a canonical role set and refuses any other spelling', async () => {
      const owner = await person();
      const { resolution } = await open(owner, 'controller');
      expect(resolution.roleSet).toBe('controller');
      expect(resolution.adopts).toEqual({ did: owner.did, handle: null, displayName: null });
      for (const roleSet of ['assert,auth', 'auth,auth', 'root', '', 'auth,']) {
        const response = await owner.post('/key-proofs', { roleSet });
        expect(response.status).toBe(400);
      }
    });

    it('needs an identity proof on the owner side', async () => {
      expect((await anonymous().post('/key-proofs').send({})).status).toBe(401);
    });

    it('answers an unknown, malformed or missing code on the well-known route with its own 404 body', async () => {
      expectUnknownCode(await anonymous().get('/.well-known/plat-key-proof?code=22222222'));
      expectUnknownCode(await anonymous().get('/.well-known/plat-key-proof?code=nope'));
    });

    it('hides another person’s ceremony behind the constant 404 on every owner route', async () => {
      const owner = await person();
      const stranger = await person();
      const { code } = await open(owner);
      expectNotFound(await stranger.get(`/key-proofs/${code}`));
      expectNotFound(await stranger.post(`/key-proofs/${code}/decline`));
      expectNotFound(await stranger.post(`/key-proofs/${code}/adopt`, { operation: 'x.y.z' }));
      expectNotFound(await owner.get('/key-proofs/22222222'));
      expectNotFound(await owner.get('/key-proofs/not-a-code'));
      expect((await owner.get(`/key-proofs/${code}`)).body).toMatchObject({ status: 'pending' });
    });
  });

  describe('present, adopt, decline', () => {
    it('pending → presented → adopted, with onAdopted only while the ten minutes run', async () => {
      const owner = await person();
      const { code, resolution } = await open(owner);
      const key = generateKeySigner();

      const presented = await present(code, envelope(resolution, key));
      expect(presented.status).toBe(200);
      expect(presented.body).toEqual({
        status: 'presented',
        adopts: resolution.adopts,
        expiresAt: resolution.expiresAt,
      });
      expect((await status(code)).body).toEqual({ status: 'presented', stale: false });
      expect((await owner.get(`/key-proofs/${code}`)).body).toMatchObject({
        status: 'presented',
        stale: false,
        presented: { publicKeyMultibase: key.multikey, description: 'CLI signing key' },
      });

      // A re-present of the same key replaces the stored envelope (and its description).
      expect((await present(code, envelope(resolution, key), '  laptop  ')).status).toBe(200);
      expect((await owner.get(`/key-proofs/${code}`)).body).toMatchObject({
        presented: { publicKeyMultibase: key.multikey, description: 'laptop' },
      });
      expect((await present(code, envelope(resolution, key), '   ')).status).toBe(200);
      expect((await owner.get(`/key-proofs/${code}`)).body).toMatchObject({
        presented: { description: 'CLI signing key' },
      });

      // A different key on a ceremony that has one is refused.
      expectRefused(await present(code, envelope(resolution, generateKeySigner())));

      const signed = adoptOperation(owner, key, ['auth', 'assert']);
      const adopted = await owner.post(`/key-proofs/${code}/adopt`, { operation: signed.jws });
      expect(adopted.status).toBe(200);
      expect(adopted.body).toEqual({
        status: 'adopted',
        keyId: keyIdFromPublicKey(key.publicKey),
        chainOpCID: signed.cid,
      });
      owner.identity.append(signed.jws, now);
      const state = await chainKeys(owner.did);
      expect(state.headCid).toBe(signed.cid);
      expect(state.authKeys.map((k) => k.publicKeyMultibase)).toContain(key.multikey);
      expect(state.assertKeys.map((k) => k.publicKeyMultibase)).toContain(key.multikey);
      expect(state.controllerKeys.map((k) => k.publicKeyMultibase)).not.toContain(key.multikey);

      expect((await status(code)).body).toEqual({
        status: 'adopted',
        stale: false,
        onAdopted: { did: owner.did, keyId: keyIdFromPublicKey(key.publicKey), chainOpCID: signed.cid },
      });
      expect((await owner.get(`/key-proofs/${code}`)).body).toMatchObject({ status: 'adopted' });
      // Spent: no longer resolvable, presentable or adoptable.
      expectUnknownCode(await anonymous().get(`/.well-known/plat-key-proof?code=${code}`));
      expectRefused(await present(code, envelope(resolution, key)), NOT_OPEN);
      expect((await owner.post(`/key-proofs/${code}/adopt`, { operation: signed.jws })).status).toBe(409);

      clock.offsetMs = 600_000;
      expect((await status(code)).body).toEqual({ status: 'adopted', stale: false });
    });

    it('pending → presented → rejected on decline; nothing is added', async () => {
      const owner = await person();
      const { code, resolution } = await open(owner);
      const key = generateKeySigner();
      expect((await present(code, envelope(resolution, key))).status).toBe(200);
      const declined = await owner.post(`/key-proofs/${code}/decline`);
      expect(declined.status).toBe(200);
      expect(declined.body).toEqual({ status: 'rejected' });
      expect((await status(code)).body).toEqual({ status: 'rejected', stale: false });
      expect((await chainKeys(owner.did)).headCid).toBe(owner.identity.headCid);
      expectRefused(await present(code, envelope(resolution, key)), NOT_OPEN);
      expectUnknownCode(await anonymous().get(`/.well-known/plat-key-proof?code=${code}`));
      expect((await owner.post(`/key-proofs/${code}/decline`)).status).toBe(409);
      const signed = adoptOperation(owner, key, ['auth', 'assert']);
      expect((await owner.post(`/key-proofs/${code}/adopt`, { operation: signed.jws })).status).toBe(409);
    });

    it('a bad signature fails (burns) the ceremony', async () => {
      const owner = await person();
      const { code, resolution } = await open(owner);
      const key = generateKeySigner();
      const other = generateKeySigner();
      // Names `key` but is signed by `other`.
      const forged = jws(
        { alg: 'EdDSA', typ: 'did:plat:key-add' },
        JSON.stringify(payloadFor(resolution, key)),
        other,
      );
      expectRefused(await present(code, forged));
      expect((await status(code)).body).toEqual({ status: 'failed', stale: false });
      expect((await owner.get(`/key-proofs/${code}`)).body).toMatchObject({ status: 'failed' });
      expectUnknownCode(await anonymous().get(`/.well-known/plat-key-proof?code=${code}`));
      // Even a good envelope cannot revive it.
      expectRefused(await present(code, envelope(resolution, key)), NOT_OPEN);
    });

    it('a presented ceremony burns too on a bad signature', async () => {
      const owner = await person();
      const { code, resolution } = await open(owner);
      const key = generateKeySigner();
      expect((await present(code, envelope(resolution, key))).status).toBe(200);
      const token = envelope(resolution, key);
      const [h, p, s] = token.split('.');
      const flipped = `${s[0] === 'A' ? 'B' : 'A'}${s.slice(1)}`;
      expectRefused(await present(code, `${h}.${p}.${flipped}`));
      expect((await status(code)).body).toEqual({ status: 'failed', stale: false });
    });

    it('expires after ten minutes: pending and presented alike', async () => {
      const owner = await person();
      const pending = await open(owner);
      const presented = await open(owner);
      const key = generateKeySigner();
      expect((await present(presented.code, envelope(presented.resolution, key))).status).toBe(200);

      clock.offsetMs = 600_000;
      for (const { code, resolution } of [pending, presented]) {
        expect((await status(code)).body).toEqual({ status: 'expired', stale: false });
        expect((await owner.get(`/key-proofs/${code}`)).body).toMatchObject({ status: 'expired' });
        expectUnknownCode(await anonymous().get(`/.well-known/plat-key-proof?code=${code}`));
        expectRefused(await present(code, envelope(resolution, key)), NOT_OPEN);
      }
      const signed = adoptOperation(owner, key, ['auth', 'assert']);
      expect(
        (await owner.post(`/key-proofs/${presented.code}/adopt`, { operation: signed.jws })).status,
      ).toBe(409);
      expect((await owner.post(`/key-proofs/${pending.code}/decline`)).status).toBe(409);
    });

    it('a moved head makes a presented ceremony stale: adopt is 409 until a fresh envelope', async () => {
      const owner = await person();
      const { code, resolution } = await open(owner);
      const key = generateKeySigner();
      expect((await present(code, envelope(resolution, key))).status).toBe(200);
      const early = adoptOperation(owner, key, ['auth', 'assert']);

      // Another writer moves the head.
      const other = owner.identity.addKey(['auth'], { clock: now });
      await publish(t, [other.jws]);

      expect((await status(code)).body).toEqual({ status: 'presented', stale: true });
      expect((await owner.get(`/key-proofs/${code}`)).body).toMatchObject({
        status: 'presented',
        stale: true,
      });
      expect((await owner.post(`/key-proofs/${code}/adopt`, { operation: early.jws })).status).toBe(409);
      const onNewHead = adoptOperation(owner, key, ['auth', 'assert']);
      expect((await owner.post(`/key-proofs/${code}/adopt`, { operation: onNewHead.jws })).status).toBe(409);
      expect((await status(code)).body).toEqual({ status: 'presented', stale: true });

      // The old envelope is bound to the old head; a fresh one for the same key clears it.
      expectRefused(await present(code, envelope(resolution, key)));
      const fresh = await resolve(code);
      expect(fresh.prevCID).toBe(owner.identity.headCid);
      expect(fresh.nonce).toBe(resolution.nonce);
      expect((await present(code, envelope(fresh, key))).status).toBe(200);
      expect((await status(code)).body).toEqual({ status: 'presented', stale: false });
      expect((await owner.get(`/key-proofs/${code}`)).body).toMatchObject({
        prevCID: owner.identity.headCid,
      });

      const adopted = await owner.post(`/key-proofs/${code}/adopt`, { operation: onNewHead.jws });
      expect(adopted.status).toBe(200);
      expect(adopted.body).toMatchObject({ status: 'adopted', chainOpCID: onNewHead.cid });
    });

    it('adopt takes only an update adding exactly the presented key to exactly the role set', async () => {
      const owner = await person();
      const { code, resolution } = await open(owner);
      const key = generateKeySigner();
      // Nothing presented yet.
      const early = adoptOperation(owner, key, ['auth', 'assert']);
      expect((await owner.post(`/key-proofs/${code}/adopt`, { operation: early.jws })).status).toBe(409);
      expect((await present(code, envelope(resolution, key))).status).toBe(200);

      const wrongRoles = adoptOperation(owner, key, ['auth']);
      expect((await owner.post(`/key-proofs/${code}/adopt`, { operation: wrongRoles.jws })).status).toBe(400);
      const moreRoles = adoptOperation(owner, key, ['auth', 'assert', 'controller']);
      expect((await owner.post(`/key-proofs/${code}/adopt`, { operation: moreRoles.jws })).status).toBe(400);
      const otherKey = adoptOperation(owner, generateKeySigner(), ['auth', 'assert']);
      expect((await owner.post(`/key-proofs/${code}/adopt`, { operation: otherKey.jws })).status).toBe(400);
      expect((await owner.post(`/key-proofs/${code}/adopt`, { operation: 'not-a-jws' })).status).toBe(400);
      expect((await owner.post(`/key-proofs/${code}/adopt`, {})).status).toBe(400);
      expect((await chainKeys(owner.did)).headCid).toBe(owner.identity.headCid);
      expect((await status(code)).body).toEqual({ status: 'presented', stale: false });

      const right = adoptOperation(owner, key, ['auth', 'assert']);
      expect((await owner.post(`/key-proofs/${code}/adopt`, { operation: right.jws })).status).toBe(200);
    });
  });

  describe('present: every 400 is a bare E_INVALID_REQUEST', () => {
    let owner: Actor;
    let code: string;
    let resolution: Resolution;
    let key: KeySigner;

    beforeEach(async () => {
      owner = await person();
      ({ code, resolution } = await open(owner));
      key = generateKeySigner();
    });

    /** The refusal left the ceremony untouched: a good envelope is still taken. */
    async function stillOpen(): Promise<void> {
      expect((await status(code)).body).toEqual({ status: 'pending', stale: false });
      expect((await present(code, envelope(resolution, key))).status).toBe(200);
    }

    it('refuses a body that does not validate, without details', async () => {
      expectRefused(await anonymous().post('/v1/key-proof/present').send({ code }));
      expectRefused(await anonymous().post('/v1/key-proof/present').send({ code, envelope: 5 }));
      expectRefused(
        await anonymous()
          .post('/v1/key-proof/present')
          .send({ code, envelope: envelope(resolution, key), description: 'x'.repeat(201) }),
      );
      expectRefused(
        await anonymous()
          .post('/v1/key-proof/present')
          .send({ code, envelope: envelope(resolution, key), extra: true }),
      );
      expectRefused(await anonymous().get('/v1/key-proof/status'));
      await stillOpen();
    });

    it('refuses an envelope over 4096 bytes', async () => {
      expectRefused(await present(code, envelope(resolution, key, { nonce: 'n'.repeat(4100) })));
      await stillOpen();
    });

    it('refuses a malformed JWS', async () => {
      for (const token of [
        '',
        'abc',
        'a.b',
        'a.b.c.d',
        '!!!.???.***',
        `${base64urlEncode(utf8Encode('[]'))}.e30.AA`,
      ]) {
        expectRefused(await present(code, token));
      }
      await stillOpen();
    });

    it('refuses a wrong typ, a kid, another alg or extra header members', async () => {
      const payload = JSON.stringify(payloadFor(resolution, key));
      expectRefused(await present(code, jws({ alg: 'EdDSA', typ: 'did:plat:identity-op' }, payload, key)));
      expectRefused(await present(code, jws({ alg: 'EdDSA' }, payload, key)));
      expectRefused(
        await present(
          code,
          jws({ alg: 'EdDSA', typ: 'did:plat:key-add', kid: `${owner.did}#key` }, payload, key),
        ),
      );
      expectRefused(await present(code, jws({ alg: 'ES256', typ: 'did:plat:key-add' }, payload, key)));
      expectRefused(
        await present(code, jws({ alg: 'EdDSA', typ: 'did:plat:key-add', cty: 'x' }, payload, key)),
      );
      await stillOpen();
    });

    it('refuses a payload that is not the canonical serialization', async () => {
      const fields = payloadFor(resolution, key);
      const header = { alg: 'EdDSA', typ: 'did:plat:key-add' };
      const { nonce, ...rest } = fields;
      const reordered = JSON.stringify({ ...rest, nonce });
      const spaced = JSON.stringify(fields, null, 1);
      const extra = JSON.stringify({ ...fields, extra: 'x' });
      const missing = JSON.stringify(rest);
      const numeric = JSON.stringify({ ...fields, timestamp: 1 });
      for (const text of [reordered, spaced, extra, missing, numeric, `${JSON.stringify(fields)} `]) {
        expectRefused(await present(code, jws(header, text, key)));
      }
      await stillOpen();
    });

    it('refuses a foreign audience', async () => {
      expectRefused(await present(code, envelope(resolution, key, { audience: 'evil.example' })));
      await stillOpen();
    });

    it('refuses a timestamp outside five minutes, or not in whole seconds', async () => {
      const at = (ms: number) => timestamp(new Date(now().getTime() + ms));
      expectRefused(await present(code, envelope(resolution, key, { timestamp: at(-301_000) })));
      expectRefused(await present(code, envelope(resolution, key, { timestamp: at(301_000) })));
      expectRefused(await present(code, envelope(resolution, key, { timestamp: now().toISOString() })));
      expectRefused(await present(code, envelope(resolution, key, { timestamp: 'yesterday' })));
      expect((await present(code, envelope(resolution, key, { timestamp: at(-240_000) }))).status).toBe(200);
    });

    it('refuses an envelope bound to a different identity, role set or head', async () => {
      const stranger = await person();
      expectRefused(await present(code, envelope(resolution, key, { did: stranger.did })));
      expectRefused(await present(code, envelope(resolution, key, { roleSet: 'auth,assert,controller' })));
      expectRefused(await present(code, envelope(resolution, key, { roleSet: 'controller' })));
      expectRefused(await present(code, envelope(resolution, key, { prevCID: stranger.identity.headCid })));
      await stillOpen();
    });

    it('answers a wrong nonce, an unknown code and a malformed code with the same not-open message', async () => {
      expectRefused(await present(code, envelope(resolution, key, { nonce: 'wrong' })), NOT_OPEN);
      expectRefused(await present('22222222', envelope(resolution, key)), NOT_OPEN);
      expectRefused(await present('short', envelope(resolution, key)), NOT_OPEN);
      expectRefused(await status('22222222'), NOT_OPEN);
      await stillOpen();
    });

    it('refuses a key already proved by another identity', async () => {
      const other = await person();
      const elsewhere = await open(other);
      expect((await present(elsewhere.code, envelope(elsewhere.resolution, key))).status).toBe(200);
      expectRefused(await present(code, envelope(resolution, key)));
      expect((await status(code)).body).toEqual({ status: 'pending', stale: false });

      // Also once adopted there.
      const signed = adoptOperation(other, key, ['auth', 'assert']);
      expect(
        (await other.post(`/key-proofs/${elsewhere.code}/adopt`, { operation: signed.jws })).status,
      ).toBe(200);
      expectRefused(await present(code, envelope(resolution, key)));
    });

    it('refuses a key the identity already holds', async () => {
      const held = owner.identity.signerFor('auth');
      expectRefused(await present(code, envelope(resolution, held as KeySigner)));
      await stillOpen();
    });
  });
});
