import type { Request } from 'express';
import { RouteAccess, Scope } from './route-access';

/** A verified PlatCredential as the routes see it (design.md §4). */
export interface CredentialGrant {
  cid: string;
  /** The person who issued it (the acting person). */
  issuer: string;
  /** The app it was issued to (the proof's `iss`). */
  audience: string;
  host: string;
  issuedAt: number;
  expiresAt: number;
  /** Space DIDs named by `space:<did>` resources, or "all" for `space:*`. */
  spaces: 'all' | string[];
  /** Scopes per space resource (`*` for `space:*`), to check one space exactly. */
  spaceGrants: { space: string; scopes: Scope[] }[];
  /** Scopes granted on space resources. */
  spaceScopes: Scope[];
  /** Scopes granted on the person's own `account:<did>` resource. */
  accountScopes: Scope[];
}

/** Who a verified request acts for; attached to the request by the access guard. */
export interface RequestPrincipal {
  /** The acting person's DID. */
  did: string;
  /** Credential CID, or the DID for a bare identity proof (the per-grant rate-limit key). */
  grant: string;
  /** Present when the request carried a valid X-Credential; absent for a bare identity proof. */
  credential?: CredentialGrant;
}

/** What a route allows besides its access class (declared by decorators beside it). */
export interface RouteAllowances {
  /** The caller's own bare identity proof is accepted while their erasure is pending. */
  whileErasurePending: boolean;
}

/**
 * Verifies the proof and credential of a non-anonymous route and answers who acts, or null for an
 * anonymous caller on an optional-auth route. The protocol layer (src/protocol/auth) implements it.
 */
export abstract class RequestAuthenticator {
  /**
   * `beforeCommit` runs once the caller is known and before anything is recorded (the replay jti),
   * so a refusal there (per-grant rate limits) leaves no trace.
   */
  abstract authenticate(
    request: Request,
    access: RouteAccess,
    beforeCommit?: (principal: RequestPrincipal) => void | Promise<void>,
    allowances?: RouteAllowances,
  ): Promise<RequestPrincipal | null>;
}
