import { PLAT_BRAND, type ProtocolBrand } from './brand';
import { ProtocolError } from './errors';
import { isBrandDid } from './ids';

export interface DidUrl {
  readonly did: string;
  readonly keyId: string;
}

/**
 * `kid` on everything but an identity genesis is a DID URL `<did>#<keyId>`. The DID part must be
 * the exact 31-character form; the key id is everything after the first `#` and must be non-empty.
 */
export function parseDidUrl(kid: string, brand: ProtocolBrand = PLAT_BRAND): DidUrl {
  const hash = kid.indexOf('#');
  if (hash < 0) throw new ProtocolError('KID_INVALID', `kid must be a DID URL <did>#<keyId>: ${kid}`);
  const did = kid.slice(0, hash);
  const keyId = kid.slice(hash + 1);
  if (!isBrandDid(did, brand))
    throw new ProtocolError('KID_INVALID', `kid does not name a valid ${brand.didPrefix} DID: ${kid}`);
  if (keyId.length === 0) throw new ProtocolError('KID_INVALID', `kid has an empty key id: ${kid}`);
  return { did, keyId };
}

export function didUrl(did: string, keyId: string): string {
  return `${did}#${keyId}`;
}
