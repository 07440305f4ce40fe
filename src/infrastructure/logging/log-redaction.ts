/**
 * What admits whoever holds it never reaches a log line (docs/decisions/0122-secrets-out-of-logs.md):
 * the signature of an upload or media-file URL (`sig`), a key-proof ceremony's `code`, any query
 * member named like a token, key, signature, credential, secret or password, and the codes that
 * travel in paths (`/key-proofs/<code>`, `/spaces/invites|join/<code>`). Their values become
 * `[redacted]`; the rest of the URL stays, so a line still says what was asked.
 */
export const REDACTED = '[redacted]';

/** Query member names whose value is a secret (after percent-decoding, before any `[...]`). */
const SECRET_NAME =
  /^(?:sig|code|secret|password|passwd|proof|jwt|auth|authorization)$|(?:token|key|signature|credentials?)$/i;

/** The path of a route whose segment after the prefix is a bearer code. */
const CODE_PATH = /^([/\\](?:key-proofs|spaces[/\\](?:invites|join))[/\\])[^/\\?#]+/i;
// A route template (`/spaces/join/:code` in Nest's boot lines) names no code: kept.
const CODE_PATH_IN_TEXT = /([/\\](?:key-proofs|spaces[/\\](?:invites|join))[/\\])(?!:)[^/\\?#&\s"'<>]+/gi;

/** `name=value` anywhere in free text: a URL quoted in an error message or a stack. */
const MEMBER_IN_TEXT = /(?<![\w.%[\]+-])([\w.%[\]+-]+)=([^&\s#"'<>,;)]*)/g;

/**
 * A request target (`/path?query`, or the absolute form) with its secrets redacted. On the path of
 * every logged request: a target without a query costs an `indexOf` and a character check, and a
 * query is scanned once, a new string built only when it holds a secret.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const head = queryAt === -1 ? url : url.slice(0, queryAt);
  // The absolute form (`GET http://host/key-proofs/...`) is routed by its path too.
  const pathAt = head.charCodeAt(0) === 0x2f ? 0 : startOfPath(head);
  const redactedHead = mayHoldCodePath(head, pathAt)
    ? head.slice(0, pathAt) + head.slice(pathAt).replace(CODE_PATH, `$1${REDACTED}`)
    : head;
  if (queryAt === -1) return redactedHead;
  const query = url.slice(queryAt + 1);
  const redactedQuery = redactQuery(query);
  return redactedHead === head && redactedQuery === query ? url : `${redactedHead}?${redactedQuery}`;
}

/** A query string (without its `?`) whose secret members' values are redacted. */
export function redactQuery(query: string): string {
  let redacted: string | undefined;
  let copied = 0;
  for (let start = 0; start < query.length;) {
    let end = query.indexOf('&', start);
    if (end === -1) end = query.length;
    const equals = query.indexOf('=', start);
    if (equals !== -1 && equals < end && isSecretName(query.slice(start, equals))) {
      redacted = (redacted ?? '') + query.slice(copied, equals + 1) + REDACTED;
      copied = end;
    }
    start = end + 1;
  }
  return redacted === undefined ? query : redacted + query.slice(copied);
}

/**
 * Free text (a log message, an error's message or stack) with the secrets of any URL it quotes
 * redacted. Only on lines that carry text of their own: the access line's message is constant.
 */
export function redactText(text: string): string {
  if (text.indexOf('=') === -1 && text.indexOf('/') === -1 && text.indexOf('\\') === -1) return text;
  return text
    .replace(MEMBER_IN_TEXT, (member, name: string) => (isSecretName(name) ? `${name}=${REDACTED}` : member))
    .replace(CODE_PATH_IN_TEXT, `$1${REDACTED}`);
}

/** Whether a query member's name (as sent: maybe percent-encoded, maybe `name[]`) names a secret. */
export function isSecretName(sent: string): boolean {
  let name = sent;
  if (name.indexOf('%') !== -1 || name.indexOf('+') !== -1) {
    try {
      name = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      // Not decodable: judged as sent.
    }
  }
  const bracket = name.indexOf('[');
  if (bracket > 0) name = name.slice(0, bracket);
  return SECRET_NAME.test(name.trim());
}

/** Where the path of an absolute-form target starts (its length when it has none). */
function startOfPath(head: string): number {
  const scheme = head.indexOf('://');
  if (scheme === -1) return 0;
  const slash = head.indexOf('/', scheme + 3);
  return slash === -1 ? head.length : slash;
}

/** `/k...` or `/s...`: the only paths that can carry a code (cheaper than running the expression). */
function mayHoldCodePath(url: string, pathAt: number): boolean {
  const first = url.charCodeAt(pathAt + 1) | 0x20;
  return first === 0x6b || first === 0x73;
}
