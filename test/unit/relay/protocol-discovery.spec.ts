import { loadConfig } from '../../../src/config/app-config';
import { protocolDiscovery } from '../../../src/protocol/relay/controllers/protocol-discovery.controller';

describe('protocol discovery document', () => {
  it('defaults the relay to <PUBLIC_BASE_URL>/relay', () => {
    const document = protocolDiscovery(loadConfig({ PUBLIC_BASE_URL: 'https://api.example.com/' }));
    expect(document.relayUrl).toBe('https://api.example.com/relay');
    expect(document.didMethod).toBe('plat');
    expect(document.endpoints.blob).toBe('https://api.example.com/relay/content/{contentId}/blob');
  });

  it('follows RELAY_URL and PROTOCOL_SPEC_URL', () => {
    const document = protocolDiscovery(
      loadConfig({
        PUBLIC_BASE_URL: 'https://api.example.com',
        RELAY_URL: 'https://relay.example.org/',
        PROTOCOL_SPEC_URL: 'https://spec.example.org/plat',
      }),
    );
    expect(document.relayUrl).toBe('https://relay.example.org');
    expect(document.specUrl).toBe('https://spec.example.org/plat');
    expect(document.endpoints.identityLog).toBe('https://relay.example.org/proof/v1/identities/{did}/log');
  });

  it('refuses an ORIGIN_KEY that is not a base64url 32-byte seed', () => {
    expect(() => loadConfig({ ORIGIN_KEY: 'short' })).toThrow(/ORIGIN_KEY/);
    expect(() => loadConfig({ ORIGIN_KEY: `${'A'.repeat(42)}B` })).toThrow(/ORIGIN_KEY/);
    expect(loadConfig({ ORIGIN_KEY: `${'A'.repeat(42)}E` }).ORIGIN_KEY).toBe(`${'A'.repeat(42)}E`);
  });
});
