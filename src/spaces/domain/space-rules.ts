/**
 * The value sets and limits of spaces (api-spec.md "Space", legacy Spaces table, "Limits").
 * Enums are open on the wire; these are the members this service writes.
 */

/** Every join mode a space can carry (api-spec.md "Space"). */
export const JOIN_MODES = ['closed', 'open', 'application', 'paid', 'allowlist'] as const;
export type JoinMode = (typeof JOIN_MODES)[number];

/** The join modes PUT /spaces/{id}/public-config may set. */
export const LEGACY_JOIN_MODES = ['closed', 'open', 'application'] as const;
export type LegacyJoinMode = (typeof LEGACY_JOIN_MODES)[number];

export const SITE_MODES = ['join', 'posts'] as const;
export type SiteMode = (typeof SITE_MODES)[number];

/** Membership roles; owner (the creator) is an admin that no one can demote, kick or ban. */
export const MEMBER_ROLES = ['owner', 'admin', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** Roles PUT /spaces/{id}/members/{memberDid} may assign. */
export const ASSIGNABLE_ROLES = ['admin', 'member'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

/**
 * Membership row states: active (a member), left (left on their own), removed (kicked, or unbanned),
 * banned (cannot rejoin), invited (named before joining; reserved for direct invitations).
 */
export const MEMBERSHIP_STATUSES = ['active', 'left', 'removed', 'banned', 'invited'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

export const APPLICATION_STATUSES = ['pending', 'approved', 'rejected', 'canceled'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** instant (default) skips the application; application forces it; inherit follows the space. */
export const JOIN_MODE_OVERRIDES = ['instant', 'application', 'inherit'] as const;
export type JoinModeOverride = (typeof JOIN_MODE_OVERRIDES)[number];

/** How holding an invite admits: at once, or through an application. */
export type EffectiveJoinMode = 'instant' | 'application';

/**
 * How an invite admits: instant and application say so; inherit follows the space, where only the
 * application join mode asks for an application (an invite to a closed space is the admission).
 */
export function effectiveJoinMode(override: JoinModeOverride, spaceJoinMode: string): EffectiveJoinMode {
  if (override === 'inherit') return spaceJoinMode === 'application' ? 'application' : 'instant';
  return override === 'application' ? 'application' : 'instant';
}

export const isAdminRole = (role: string | null | undefined): boolean => role === 'owner' || role === 'admin';

export const LIMITS = {
  displayName: 100,
  description: 1000,
  questions: 5,
  question: 500,
  response: 2000,
  statusMessage: 280,
  inviteMaxUses: 1000,
  inviteExpiresInMinutes: 43200,
} as const;

/** 3 to 63 characters, lowercase letters, digits and hyphens, starting and ending with a letter or digit. */
export const DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/** The normalized default subdomain every space holds until it claims one: `space-<32 hex>`. */
export const DEFAULT_DOMAIN_PATTERN = /^space-[0-9a-f]{32}$/;

/** Host names of the platform itself; answered as taken. */
export const RESERVED_DOMAINS: ReadonlySet<string> = new Set([
  'admin',
  'api',
  'app',
  'assets',
  'auth',
  'cdn',
  'docs',
  'help',
  'mail',
  'media',
  'relay',
  'static',
  'status',
  'support',
  'www',
]);

export type DomainStatus = 'available' | 'taken' | 'invalid';

/** Whether a name may ever be claimed as a subdomain (the `invalid` answer when not). */
export function isClaimableDomainForm(domain: string): boolean {
  return DOMAIN_PATTERN.test(domain) && !DEFAULT_DOMAIN_PATTERN.test(domain);
}

export function defaultDomainOf(spaceUuid: string): string {
  return `space-${spaceUuid.replace(/-/g, '')}`;
}

/** The protocol DID form (api-spec.md "Shared conventions"). */
export const DID_PATTERN = /^did:plat:[2346789acdefhknrtvz]{31}$/;

export const isProtocolDid = (value: unknown): boolean =>
  typeof value === 'string' && DID_PATTERN.test(value);

/** The join modes GET /v1/spaces filters on (api-spec.md "Anonymous reads"). */
export const LISTING_JOIN_MODES = ['closed', 'open', 'application', 'allowlist'] as const;

/** `activeWithinDays` is clamped to this range, never rejected (api-spec.md "Limits"). */
export const ACTIVE_WITHIN_DAYS = { min: 1, max: 365 } as const;

export const SITE_LIMITS = {
  category: 64,
  links: 20,
  linkUrl: 2048,
  linkLabel: 100,
  linkDescription: 300,
  topicName: 100,
  topicDescription: 1000,
  topicGroups: 20,
  pageTitle: 200,
  pageSlug: 100,
  /** Generated slugs leave room for a `-<n>` suffix on collision. */
  generatedSlug: 80,
  pageBody: 100_000,
  sortOrder: 1_000_000,
  externalDomain: 253,
} as const;

/**
 * A discovery category as stored and compared: trimmed, inner whitespace collapsed to one space,
 * lower-cased. Empty after normalizing is null (no category; as a filter, no filtering).
 */
export function normalizeCategory(raw: string): string | null {
  const normalized = raw.trim().replace(/\s+/g, ' ').toLowerCase();
  return normalized === '' ? null : normalized;
}

/** Whole days from 1 to 365: below 1 is 1, above 365 is 365, fractions are cut. */
export function clampActiveWithinDays(days: number): number {
  return Math.trunc(Math.min(ACTIVE_WITHIN_DAYS.max, Math.max(ACTIVE_WITHIN_DAYS.min, days)));
}

/** Who may read the posts of a topic (design.md §9): a tier, or members of named groups. */
export const TOPIC_ACCESS_TIERS = ['public', 'signedIn', 'members'] as const;
export type TopicAccessTier = (typeof TOPIC_ACCESS_TIERS)[number];
export type TopicAccessKind = TopicAccessTier | 'groups';

/** The key topic names are unique by and listed in: whitespace collapsed, lower-cased. */
export function topicNameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Page slugs: lowercase letters and digits in hyphen-separated runs (never an id: ids have `_`). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A slug made from a title: accents dropped, anything else between letters and digits a hyphen. */
export function slugFromTitle(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SITE_LIMITS.generatedSlug)
    .replace(/-+$/g, '');
  return slug || 'page';
}

/**
 * An external host name a space may prove control of: at least two labels of lowercase letters,
 * digits and inner hyphens, the last one not all digits (so never an IPv4 address).
 */
export const EXTERNAL_DOMAIN_PATTERN =
  /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?=[a-z0-9-]*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
