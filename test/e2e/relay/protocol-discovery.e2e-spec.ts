import request from 'supertest';
import { OriginIdentityService } from '../../../src/protocol/relay/services/origin-identity.service';
import { TestApp } from '../../support/app';
import { bootRelayApp, ingest, TestIdentity } from './support';

describe('GET /v1/protocol (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootRelayApp();
  });

  afterAll(async () => {
    await t.close();
  });

  it('announces the embedded relay under PUBLIC_BASE_URL', async () => {
    const response = await request(t.http).get('/v1/protocol');
    expect(response.status).toBe(200);
    const relay = 'http://api.plat.test/relay';
    expect(response.body).toEqual({
      relayUrl: relay,
      didMethod: 'plat',
      specUrl: 'https://protocol.dfos.com/spec',
      endpoints: {
        wellKnown: `${relay}/.well-known/plat-relay`,
        identity: `${relay}/proof/v1/identities/{did}`,
        identityLog: `${relay}/proof/v1/identities/{did}/log`,
        content: `${relay}/proof/v1/content/{contentId}`,
        contentLog: `${relay}/proof/v1/content/{contentId}/log`,
        operation: `${relay}/proof/v1/operations/{cid}`,
        blob: `${relay}/content/{contentId}/blob`,
        indexContent: `${relay}/index/v0/content`,
        indexIdentities: `${relay}/index/v0/identities`,
      },
    });
  });

  it('every template, filled with real values, reaches a working relay route', async () => {
    const { body } = await request(t.http).get('/v1/protocol');
    const origin = t.app.get(OriginIdentityService);
    const published = await origin.publishContent({
      $schema: 'https://schemas.dfos.com/post/v1',
      title: 'Hi',
    });
    const alice = new TestIdentity();
    await ingest(t, [alice.genesis]);
    const values: Record<string, string> = {
      did: alice.did,
      contentId: published.contentId,
      cid: alice.head,
    };
    const base = new URL(body.relayUrl as string);
    const checks: Record<string, (response: request.Response) => void> = {
      wellKnown: (r) => expect(r.body.did).toBe(origin.did),
      identity: (r) => expect(r.body.did).toBe(alice.did),
      identityLog: (r) => expect(r.body.entries[0].jwsToken).toBe(alice.genesis),
      content: (r) => expect(r.body.contentId).toBe(published.contentId),
      contentLog: (r) => expect(r.body.entries).toHaveLength(1),
      operation: (r) => expect(r.body.jwsToken).toBe(alice.genesis),
      blob: (r) => expect(r.body.title).toBe('Hi'),
      indexContent: (r) => expect(Array.isArray(r.body.content)).toBe(true),
      indexIdentities: (r) => expect(Array.isArray(r.body.identities)).toBe(true),
    };
    expect(Object.keys(body.endpoints).sort()).toEqual(Object.keys(checks).sort());
    for (const [name, template] of Object.entries(body.endpoints as Record<string, string>)) {
      const url = new URL(template.replace(/\{(\w+)\}/g, (_match, key: string) => values[key]));
      expect(url.origin).toBe(base.origin);
      expect(url.pathname.startsWith(base.pathname)).toBe(true);
      const response = await request(t.http).get(url.pathname + url.search);
      expect({ name, status: response.status }).toEqual({ name, status: 200 });
      checks[name](response);
    }
  });

  it('the relay well-known names the origin identity and carries its signed profile', async () => {
    const response = await request(t.http).get('/relay/.well-known/plat-relay');
    const origin = t.app.get(OriginIdentityService);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      did: origin.did,
      protocol: 'plat-web-relay',
      capabilities: {
        proof: true,
        write: true,
        content: true,
        log: true,
        revocations: true,
        index: true,
        signing: false,
      },
      peers: [],
      stats: { pendingOps: 0 },
    });
    const [header, payload] = (response.body.profile as string)
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
    expect(header).toMatchObject({
      alg: 'EdDSA',
      typ: 'did:plat:artifact',
      kid: `${origin.did}#${origin.signer.keyId}`,
    });
    expect(payload).toMatchObject({
      version: 1,
      type: 'artifact',
      did: origin.did,
      content: { name: 'api.plat.test' },
    });
  });
});

describe('GET /v1/protocol with RELAY_URL (e2e)', () => {
  it('announces the configured relay instead', async () => {
    const t = await bootRelayApp({ env: { RELAY_URL: 'https://relay.example.org/base/' } });
    try {
      const { body } = await request(t.http).get('/v1/protocol');
      expect(body.relayUrl).toBe('https://relay.example.org/base');
      expect(body.endpoints.identity).toBe('https://relay.example.org/base/proof/v1/identities/{did}');
    } finally {
      await t.close();
    }
  });
});
