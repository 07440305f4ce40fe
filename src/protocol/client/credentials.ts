import {
  createCredential,
  createRevocation,
  decodeCredential,
  formatCreatedAt,
  isDagCborCid,
  isPlatDid,
  nowCreatedAt,
  systemClock,
  type Attenuation,
  type Clock,
  type SignedCredential,
  type SignedRevocation,
} from '../core';
import type { PlatIdentity } from './identity';

/** api-spec.md "Authentication" item 5. Post, comment and upvote scopes live on spaces. */
export const SPACE_SCOPES = ['read:posts', 'write:posts', 'write:comments', 'write:upvotes'] as const;
/** …and profile, email and membership scopes on the person's own account (design.md §4). */
export const ACCOUNT_SCOPES = ['read:profile', 'read:email', 'read:memberships'] as const;
export type PlatScope = (typeof SPACE_SCOPES)[number] | (typeof ACCOUNT_SCOPES)[number];
export const ALL_SCOPES: readonly PlatScope[] = [...ACCOUNT_SCOPES, ...SPACE_SCOPES];

export function isPlatScope(value: string): value is PlatScope {
  return (ALL_SCOPES as readonly string[]).includes(value);
}

/** Thrown for a credential request that cannot be expressed (unknown scope, missing space, …). */
export class CredentialInputError extends Error {
  override readonly name = 'CredentialInputError';
}

/**
 * The `att` of design.md §4 for these scopes: space scopes on `space:*` or on each `space:<DID>`,
 * account scopes on `account:<person DID>`. Scopes are listed in api-spec.md order.
 */
export function buildAttenuations(
  personDid: string,
  scopes: readonly string[],
  spaces: readonly string[] = [],
): Attenuation[] {
  const unknown = scopes.filter((scope) => !isPlatScope(scope));
  if (unknown.length > 0) {
    throw new CredentialInputError(`unknown scope ${unknown.join(', ')} (known: ${ALL_SCOPES.join(', ')})`);
  }
  if (scopes.length === 0) throw new CredentialInputError('a credential needs at least one scope');
  const spaceActions = SPACE_SCOPES.filter((scope) => scopes.includes(scope));
  const accountActions = ACCOUNT_SCOPES.filter((scope) => scopes.includes(scope));
  const att: Attenuation[] = [];
  if (spaceActions.length > 0) {
    if (spaces.length === 0) {
      throw new CredentialInputError(`${spaceActions.join(', ')} need a space: a space DID or "*"`);
    }
    const targets = spaces.includes('*') ? ['*'] : [...new Set(spaces)];
    for (const space of targets) {
      if (space !== '*' && !isPlatDid(space)) {
        throw new CredentialInputError(`space must be a did:plat DID or "*": ${space}`);
      }
      att.push({ resource: `space:${space}`, action: spaceActions.join(',') });
    }
  } else if (spaces.length > 0) {
    throw new CredentialInputError('spaces were given but no space scope (read:posts, write:…)');
  }
  if (accountActions.length > 0) {
    att.push({ resource: `account:${personDid}`, action: accountActions.join(',') });
  }
  return att;
}

export interface IssueCredentialInput {
  /** the app's DID: the identity that will sign request proofs presenting this credential */
  audience: string;
  /** this API's host (`PUBLIC_HOST`); the credential covers no other */
  host: string;
  /** scopes and spaces (`*` or space DIDs), turned into `att` by buildAttenuations … */
  scopes?: readonly string[];
  spaces?: readonly string[];
  /** … or the attenuations verbatim */
  att?: Attenuation[];
  /** lifetime in seconds (default 30 days), or an absolute `exp` */
  expiresInSeconds?: number;
  exp?: number;
  /** seconds to date `iat` back, for verifiers whose clock runs slightly behind (default 0) */
  backdateSeconds?: number;
  /** parent credential, for a delegated credential */
  prf?: string[];
  clock?: Clock;
}

export const DEFAULT_CREDENTIAL_LIFETIME_SECONDS = 30 * 86400;

/** A PlatCredential (design.md §4) from the person to an app, signed by the person's key. */
export function issueCredential(identity: PlatIdentity, input: IssueCredentialInput): SignedCredential {
  if (!isPlatDid(input.audience)) {
    throw new CredentialInputError(`the audience must be the app's did:plat DID: ${input.audience}`);
  }
  if (!input.host) throw new CredentialInputError('the credential needs the API host');
  const att = input.att ?? buildAttenuations(identity.did, input.scopes ?? [], input.spaces ?? []);
  const now = Math.floor((input.clock ?? systemClock)().getTime() / 1000);
  const iat = now - (input.backdateSeconds ?? 0);
  const exp = input.exp ?? now + (input.expiresInSeconds ?? DEFAULT_CREDENTIAL_LIFETIME_SECONDS);
  if (!(exp > now)) throw new CredentialInputError('the credential would already be expired');
  return createCredential(
    { iss: identity.did, aud: input.audience, host: input.host, att, prf: input.prf ?? [], exp, iat },
    identity.issuingKey,
  );
}

/**
 * A revocation of one of this person's credentials (CREDENTIALS.md "Revocation"), given the
 * credential token (its issuer is checked: only the issuer can revoke) or its CID.
 */
export function revokeCredential(
  identity: PlatIdentity,
  credential: string,
  options: { clock?: Clock; createdAt?: Date } = {},
): SignedRevocation {
  let credentialCID: string;
  if (isDagCborCid(credential)) {
    credentialCID = credential;
  } else {
    const decoded = decodeCredential(credential);
    if (decoded.payload.iss !== identity.did) {
      throw new CredentialInputError(
        `credential ${decoded.cid} was issued by ${decoded.payload.iss}; only its issuer can revoke it`,
      );
    }
    credentialCID = decoded.cid;
  }
  const createdAt = options.createdAt
    ? formatCreatedAt(options.createdAt)
    : nowCreatedAt(options.clock ?? systemClock);
  return createRevocation({ did: identity.did, credentialCID, createdAt }, identity.issuingKey);
}

/** Durations like `90s`, `15m`, `12h`, `30d`, `2w` (a bare number is seconds). */
export function parseDuration(text: string): number {
  const match = /^(\d+)\s*([smhdw]?)$/.exec(text.trim());
  if (!match) throw new CredentialInputError(`not a duration: ${text} (e.g. 30d, 12h, 45m, 3600s)`);
  const unit = { '': 1, s: 1, m: 60, h: 3600, d: 86400, w: 7 * 86400 }[match[2] as '' | 's'];
  const seconds = Number(match[1]) * unit;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) {
    throw new CredentialInputError(`duration must be positive: ${text}`);
  }
  return seconds;
}
