/** Scopes of api-spec.md "Authentication" item 5. */
export type Scope =
  | 'read:profile'
  | 'read:email'
  | 'read:memberships'
  | 'read:posts'
  | 'write:posts'
  | 'write:comments'
  | 'write:upvotes';

/**
 * How a route authenticates (api-spec.md "Authentication" item 1, design.md §2–§4):
 * - anonymous: no credentials required or accepted;
 * - optional: anonymous projection, or the granting user's view with a covering grant;
 * - gated: a credential holding `scopes` (any of `anyOf`), or a bare identity proof when `identityProof`;
 *   `spaceParam` names the route parameter holding a space reference, where a refused credential
 *   must not reveal whether that space exists;
 * - identity: a bare identity proof only (accounts, legacy namespaces, key-proof owner side);
 * - key-proof: anonymous; the signed envelope in the body is the whole capability.
 */
export type RouteAccess =
  | { kind: 'anonymous' }
  | { kind: 'optional'; scopes: Scope[] }
  | { kind: 'gated'; scopes: Scope[]; anyOf?: boolean; identityProof: boolean; spaceParam?: string }
  | { kind: 'identity' }
  | { kind: 'key-proof' };

export const ROUTE_ACCESS = 'plat:route-access';

/**
 * Routes a person whose account erasure is pending may still call with their own bare identity
 * proof (docs/decisions/0198-a-pending-erasure-accepts-proofs-only-to-leave.md).
 */
export const ALLOWED_WHILE_ERASURE_PENDING = 'plat:allowed-while-erasure-pending';
