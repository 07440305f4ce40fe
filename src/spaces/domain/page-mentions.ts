import { parseEntityId } from '../../common/ids/entity-id';

/**
 * User mentions in page bodies (api-spec.md "Page"): a mention is a markdown link to
 * `mention:identity_...`, or plain `@name` text when the user has no public profile. Bodies are
 * stored as written; the public read renders every mention whose target is not a public profile
 * (private, missing, malformed) as plain text, so no identity id of a private user is served.
 */
// Neither part may hold a bracket, so every match attempt stops at the next `[`: linear in the
// body's length even for a 100 000-character body of unclosed brackets.
const MENTION_LINK = /\[([^[\]\n]*)\]\(mention:([^()[\]\s]*)\)/g;

/** The uuids of the identities a body mentions (well-formed `identity_` ids only). */
export function mentionedIdentities(body: string): string[] {
  const uuids = new Set<string>();
  for (const match of body.matchAll(MENTION_LINK)) {
    const uuid = parseEntityId('identity', match[2]);
    if (uuid) uuids.add(uuid);
  }
  return [...uuids];
}

/** The body with mentions of anyone outside `publicIdentities` (uuids) turned into `@name` text. */
export function renderMentions(body: string, publicIdentities: ReadonlySet<string>): string {
  return body.replace(MENTION_LINK, (link: string, label: string, target: string) => {
    const uuid = parseEntityId('identity', target);
    if (uuid && publicIdentities.has(uuid)) return link;
    return `@${label.trim().replace(/^@+/, '')}`;
  });
}
