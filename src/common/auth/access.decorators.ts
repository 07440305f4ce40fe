import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { ALLOWED_WHILE_ERASURE_PENDING, ROUTE_ACCESS, RouteAccess, Scope } from './route-access';

export const PROOF_SECURITY = 'PlatProof';
export const CREDENTIAL_SECURITY = 'PlatCredential';

/** The class name shown in the OpenAPI document and llms.txt (`credential`: no bare identity proof). */
function authClassOf(access: RouteAccess): string {
  return access.kind === 'gated' && !access.identityProof ? 'credential' : access.kind;
}

function declare(access: RouteAccess, ...security: MethodDecorator[]) {
  const scopes =
    'scopes' in access && access.scopes.length > 0 ? [ApiExtension('x-scopes', access.scopes)] : [];
  return applyDecorators(
    SetMetadata(ROUTE_ACCESS, access),
    ApiExtension('x-auth-class', authClassOf(access)),
    ...scopes,
    ...security,
  );
}

/** No credentials required or accepted. */
export const Anonymous = () => declare({ kind: 'anonymous' });

/** Anonymous projection, or the granting user's view when a grant covers the route. */
export const OptionalAuth = (...scopes: Scope[]) =>
  declare(
    { kind: 'optional', scopes },
    ApiSecurity({}),
    ApiSecurity(PROOF_SECURITY),
    ApiSecurity({ [PROOF_SECURITY]: [], [CREDENTIAL_SECURITY]: scopes }),
  );

/**
 * A request proof with a credential holding every scope, or (when allowed) a bare identity proof.
 * `spaceParam`: the route parameter naming the space, on routes scoped to one space.
 */
export const Gated = (
  scopes: Scope[],
  options: { identityProof?: boolean; anyOf?: boolean; spaceParam?: string } = {},
) =>
  declare(
    {
      kind: 'gated',
      scopes,
      anyOf: options.anyOf,
      identityProof: options.identityProof ?? true,
      ...(options.spaceParam ? { spaceParam: options.spaceParam } : {}),
    },
    ...(options.identityProof === false ? [] : [ApiSecurity(PROOF_SECURITY)]),
    ApiSecurity({ [PROOF_SECURITY]: [], [CREDENTIAL_SECURITY]: scopes }),
  );

/** A bare identity proof: the caller acts on their own account. */
export const IdentityProof = () => declare({ kind: 'identity' }, ApiSecurity(PROOF_SECURITY));

/** Key-proof ceremony routes: anonymous, the signed envelope is the capability. */
export const KeyProofRoute = () => declare({ kind: 'key-proof' });

/**
 * Besides the access class: while the caller's account erasure is pending, their own bare identity
 * proof is still accepted here (reading their profile, cancelling, exporting); everywhere else it is
 * refused with 403 (docs/decisions/0198-a-pending-erasure-accepts-proofs-only-to-leave.md).
 */
export const AllowedWhileErasurePending = () =>
  applyDecorators(
    SetMetadata(ALLOWED_WHILE_ERASURE_PENDING, true),
    ApiExtension('x-allowed-while-erasure-pending', true),
  );
