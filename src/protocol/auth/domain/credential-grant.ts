import { canonicalActionSet, type VerifiedCredential } from '../../core';
import type { CredentialGrant } from '../../../common/auth/request-authenticator';
import type { Scope } from '../../../common/auth/route-access';

/** Scopes in the order api-spec.md lists them; anything else in `action` is ignored. */
export const SCOPES: Scope[] = [
  'read:profile',
  'read:email',
  'read:memberships',
  'read:posts',
  'write:posts',
  'write:comments',
  'write:upvotes',
];
const SPACE_SCOPES = new Set<Scope>(['read:posts', 'write:posts', 'write:comments', 'write:upvotes']);
const ACCOUNT_SCOPES = new Set<Scope>(['read:profile', 'read:email', 'read:memberships']);

/**
 * What a verified credential grants (design.md §4): post, comment and upvote scopes on `space:*` or
 * `space:<DID>` resources; profile, email and membership scopes on the (root) issuer's own account.
 */
export function toCredentialGrant(credential: VerifiedCredential): CredentialGrant {
  const spaceScopes = new Set<Scope>();
  const accountScopes = new Set<Scope>();
  const spaces = new Set<string>();
  const spaceGrants: CredentialGrant['spaceGrants'] = [];
  let allSpaces = false;
  for (const { resource, action } of credential.att) {
    const actions = [...canonicalActionSet(action)].filter((token): token is Scope =>
      SCOPES.includes(token as Scope),
    );
    if (resource === `account:${credential.rootIssuer}`) {
      actions.filter((scope) => ACCOUNT_SCOPES.has(scope)).forEach((scope) => accountScopes.add(scope));
      continue;
    }
    if (!resource.startsWith('space:')) continue;
    const granted = actions.filter((scope) => SPACE_SCOPES.has(scope));
    if (granted.length === 0) continue;
    granted.forEach((scope) => spaceScopes.add(scope));
    const target = resource.slice('space:'.length);
    spaceGrants.push({ space: target, scopes: SCOPES.filter((scope) => granted.includes(scope)) });
    if (target === '*') allSpaces = true;
    else spaces.add(target);
  }
  return {
    cid: credential.cid,
    // Through a delegation chain the person acting is the root issuer; the leaf may be an app.
    issuer: credential.rootIssuer,
    audience: credential.audience,
    host: credential.host ?? '',
    issuedAt: credential.payload.iat,
    expiresAt: credential.payload.exp,
    spaces: allSpaces ? 'all' : [...spaces].sort(),
    spaceGrants,
    spaceScopes: SCOPES.filter((scope) => spaceScopes.has(scope)),
    accountScopes: SCOPES.filter((scope) => accountScopes.has(scope)),
  };
}

/** All scopes the grant carries, on any resource. */
export function grantedScopes(grant: CredentialGrant): Set<Scope> {
  return new Set([...grant.spaceScopes, ...grant.accountScopes]);
}

/** Does the grant hold `scope` on the space with this DID (through `space:*` or `space:<did>`)? */
export function grantCoversSpace(grant: CredentialGrant, spaceDid: string, scope: Scope): boolean {
  return grant.spaceGrants.some(
    (entry) => (entry.space === '*' || entry.space === spaceDid) && entry.scopes.includes(scope),
  );
}
