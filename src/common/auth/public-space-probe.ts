/**
 * Whether a route's space reference (subdomain, space id or DID) names a live space with a public
 * profile. The spaces module provides it; the access guard uses it so that a credential refused on
 * a space-scoped route does not reveal a private or missing space (api-spec.md "Authentication"
 * items 7 and 8: there it is the same 404 as a nonexistent space).
 */
export abstract class PublicSpaceProbe {
  abstract isPublic(reference: string): Promise<boolean>;
}
