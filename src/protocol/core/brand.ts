/**
 * The protocol is PLAT v1: the public DFOS v1 protocol with its brand word replaced (design.md §0).
 * Everything brand-dependent lives here so the same code can verify the upstream `dfos` reference
 * vectors (DFOS_BRAND) while production uses PLAT_BRAND, the default everywhere.
 */
export interface ProtocolBrand {
  /** DID method name, e.g. `plat` */
  readonly method: string;
  /** `did:<method>:` */
  readonly didPrefix: string;
  /** credential payload `type` discriminator */
  readonly credentialType: string;
  /** the recognized relay-locator service type */
  readonly relayServiceType: string;
  /**
   * Resource types whose `<type>:*` form is a wildcard covering every `<type>:<id>`. CREDENTIALS.md
   * defines it for `chain:` only; design.md §4 registers `space:*` ("covers all the person's spaces").
   */
  readonly wildcardResourceTypes: readonly string[];
}

export const PLAT_BRAND: ProtocolBrand = Object.freeze({
  method: 'plat',
  didPrefix: 'did:plat:',
  credentialType: 'PlatCredential',
  relayServiceType: 'PlatRelay',
  wildcardResourceTypes: Object.freeze(['chain', 'space']),
});

/** Upstream brand: only for verifying the reference vectors in protocol/vectors. */
export const DFOS_BRAND: ProtocolBrand = Object.freeze({
  method: 'dfos',
  didPrefix: 'did:dfos:',
  credentialType: 'DFOSCredential',
  relayServiceType: 'DfosRelay',
  wildcardResourceTypes: Object.freeze(['chain']),
});

/** The service entry type under which the platform publishes its own origin (design.md §0). */
export const PLAT_ORIGIN_SERVICE_TYPE = 'PlatOrigin';

export type SignedObjectKind = 'identity-op' | 'content-op' | 'credential' | 'revocation';

/** JWS `typ` of a signed protocol object, e.g. `did:plat:identity-op`. */
export function typFor(kind: SignedObjectKind, brand: ProtocolBrand = PLAT_BRAND): string {
  return `${brand.didPrefix}${kind}`;
}

/** Auth tokens (request proofs) use the IANA `JWT` typ, not a branded one. */
export const AUTH_TOKEN_TYP = 'JWT';
