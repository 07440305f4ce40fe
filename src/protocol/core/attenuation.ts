import { PLAT_BRAND, type ProtocolBrand } from './brand';

/** One grant: a resource (`type:id`) and a comma-separated action list. */
export interface Attenuation {
  resource: string;
  action: string;
}

/**
 * CREDENTIALS.md "Action Coverage": split on commas, trim ASCII whitespace, drop empties, collect
 * into a set; tokens compare case-sensitively and `*` is an ordinary token, not a wildcard.
 */
export function canonicalActionSet(action: string): Set<string> {
  const tokens = action.split(',').map((token) => token.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, ''));
  return new Set(tokens.filter((token) => token.length > 0));
}

function resourceType(resource: string): string | null {
  const colon = resource.indexOf(':');
  return colon > 0 ? resource.slice(0, colon) : null;
}

/**
 * Does a granted resource cover a requested (or delegated) one? Never across types; `<type>:*`
 * covers every `<type>:…` only for the brand's wildcard types (chain, and for PLAT space);
 * everything else is exact byte equality, so a child can never widen `chain:X` to `chain:*`.
 */
export function resourceCovers(
  granted: string,
  requested: string,
  brand: ProtocolBrand = PLAT_BRAND,
): boolean {
  if (granted === requested) return true;
  const type = resourceType(granted);
  return (
    type !== null &&
    granted === `${type}:*` &&
    brand.wildcardResourceTypes.includes(type) &&
    resourceType(requested) === type
  );
}

function isSubset(child: Set<string>, parent: Set<string>): boolean {
  for (const token of child) if (!parent.has(token)) return false;
  return true;
}

/**
 * Monotonic attenuation: every child entry must be covered by ONE parent entry that covers its
 * resource and whose action set contains all of the child's actions (an empty set is the inert bottom).
 */
export function isAttenuationOf(
  child: readonly Attenuation[],
  parent: readonly Attenuation[],
  brand: ProtocolBrand = PLAT_BRAND,
): boolean {
  return child.every((c) => {
    const actions = canonicalActionSet(c.action);
    return parent.some(
      (p) => resourceCovers(p.resource, c.resource, brand) && isSubset(actions, canonicalActionSet(p.action)),
    );
  });
}

/** Request matching: some entry covers the resource and lists the concrete action. */
export function attenuationsGrant(
  att: readonly Attenuation[],
  request: { resource: string; action: string },
  brand: ProtocolBrand = PLAT_BRAND,
): boolean {
  return att.some(
    (entry) =>
      resourceCovers(entry.resource, request.resource, brand) &&
      canonicalActionSet(entry.action).has(request.action),
  );
}
