import { createHash, createHmac } from 'node:crypto';

/** Without ERASED_BAN_SECRET (development): a fixed key, so the hashes still survive restarts. */
const DEVELOPMENT_KEY = createHash('sha256').update('plat erased bans, development key').digest();

/**
 * The key of an erased person's bans: HMAC-SHA256 of their DID under the secret, hex
 * (docs/decisions/0193-bans-of-erased-people-kept-as-keyed-hashes.md). Keyed, so that a list of
 * DIDs (the relay publishes every identity) does not undo it without the secret.
 */
export function erasedBanHash(secret: string | undefined, did: string): string {
  return createHmac('sha256', secret ? Buffer.from(secret) : DEVELOPMENT_KEY)
    .update(did)
    .digest('hex');
}
