import { AUTH_TOKEN_TYP, PLAT_BRAND, typFor, type ProtocolBrand, type SignedObjectKind } from './brand';
import { decodeJws } from './jws';

const KINDS: readonly SignedObjectKind[] = ['identity-op', 'content-op', 'credential', 'revocation'];

/**
 * Routing for a relay's mixed ingest batch: the kind named by the JWS `typ` (after the header
 * profile checks), or null for an unknown typ. Routing only: every kind is then fully verified.
 */
export function classifyJws(
  token: string,
  brand: ProtocolBrand = PLAT_BRAND,
): SignedObjectKind | 'auth-token' | null {
  const { header } = decodeJws(token);
  if (header.typ === AUTH_TOKEN_TYP) return 'auth-token';
  return KINDS.find((kind) => header.typ === typFor(kind, brand)) ?? null;
}
