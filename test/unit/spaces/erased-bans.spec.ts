import { createHmac } from 'node:crypto';
import { erasedBanHash } from '../../../src/spaces/domain/erased-bans';

/** docs/decisions/0193-bans-of-erased-people-kept-as-keyed-hashes.md */
describe('erasedBanHash', () => {
  const did = 'did:plat:abcdefghijklmnopqrstuvwxyz234567';
  const secret = 'a-secret-of-at-least-thirty-two-characters';

  it('is the HMAC-SHA256 of the DID under the secret, hex, stable', () => {
    const hash = erasedBanHash(secret, did);
    expect(hash).toBe(createHmac('sha256', secret).update(did).digest('hex'));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(erasedBanHash(secret, did)).toBe(hash);
  });

  it('differs by DID and by secret, and is not the bare sha256 of the DID', () => {
    const hash = erasedBanHash(secret, did);
    expect(erasedBanHash(secret, `${did}x`)).not.toBe(hash);
    expect(erasedBanHash(`${secret}x`, did)).not.toBe(hash);
    expect(erasedBanHash(undefined, did)).not.toBe(hash);
    expect(erasedBanHash(undefined, did)).toBe(erasedBanHash(undefined, did));
    expect(erasedBanHash(undefined, did)).not.toContain(did);
  });
});
