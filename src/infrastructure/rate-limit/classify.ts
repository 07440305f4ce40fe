import { parse as parseUrl } from 'node:url';
import { RequestClass } from './budgets';

/** How the limiter treats one request, from its method and path alone (the route may not exist). */
export interface Classification {
  /** Health probes are never charged. */
  exempt: boolean;
  requestClass: RequestClass | null;
  /** The OpenAPI spec and llms.txt: refusals are plain text, outside the error envelope. */
  artifact: boolean;
}

// Express routes case-insensitively and ignores one trailing slash, so classification does too:
// otherwise `POST /V1/Spaces/x/Posts/` would reach the posts route charged as an ordinary request.
const route = (pattern: string) => new RegExp(`^${pattern}/?$`, 'i');
const SEGMENT = '[^/]+';

const UPVOTE = route(`/v1/spaces/${SEGMENT}/(?:posts|comments)/${SEGMENT}/upvote`);
const KEY_PROOF_PRESENT = route('/v1/key-proof/present');
/**
 * POST/PATCH/DELETE of posts and comments, media mints, account creation (design.md §6), and the
 * expensive anonymous-capable work beside them: relay ingest (up to 100 operations verified per
 * request) and space creation (an identity chain signed per space).
 */
const POST_ROUTES: Record<string, RegExp[]> = {
  POST: [
    route(`/v1/spaces/${SEGMENT}/posts`),
    route(`/v1/spaces/${SEGMENT}/posts/${SEGMENT}/comments`),
    route(`/v1/spaces/${SEGMENT}/media`),
    route('/media'),
    route('/users'),
    route('/relay/proof/v1/operations'),
    route('/spaces'),
  ],
  PATCH: [
    route(`/v1/spaces/${SEGMENT}/posts/${SEGMENT}`),
    route(`/v1/spaces/${SEGMENT}/comments/${SEGMENT}`),
  ],
  DELETE: [
    route(`/v1/spaces/${SEGMENT}/posts/${SEGMENT}`),
    route(`/v1/spaces/${SEGMENT}/comments/${SEGMENT}`),
  ],
};
const ARTIFACT = route('(?:/v1)?/(?:openapi\\.json|openapi\\.yaml|llms\\.txt)');
/** The health routes only: any other path under /health is an unknown route, charged like one. */
const HEALTH = /^\/health\/(?:live|ready|dependencies)\/?$/i;
/** Characters for which `parseurl` leaves its fast path. */
const NEEDS_FULL_PARSE = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * The path Express routes a request target by, so classification sees what the router sees: the
 * pathname of `parseurl` (Express's parser): up to the first `?` for a plain origin-form target,
 * else Node's legacy `url.parse` (absolute-form targets, `#`, whitespace, where backslashes become
 * slashes). Otherwise `POST /v1/spaces/s/posts#x` would reach the posts route unclassified.
 */
export function routedPath(target: string): string {
  if (target.charCodeAt(0) === 0x2f && !NEEDS_FULL_PARSE.test(target)) {
    const query = target.indexOf('?');
    return query === -1 ? target : target.slice(0, query);
  }
  return parseUrl(target).pathname ?? '';
}

export function classify(method: string, path: string): Classification {
  if (HEALTH.test(path)) return { exempt: true, requestClass: null, artifact: false };
  const verb = method.toUpperCase();
  if (verb === 'GET' || verb === 'HEAD') {
    return { exempt: false, requestClass: 'read', artifact: ARTIFACT.test(path) };
  }
  let requestClass: RequestClass | null = null;
  if ((verb === 'PUT' || verb === 'DELETE') && UPVOTE.test(path)) requestClass = 'upvote';
  else if (verb === 'POST' && KEY_PROOF_PRESENT.test(path)) requestClass = 'key-proof-present';
  else if (POST_ROUTES[verb]?.some((pattern) => pattern.test(path))) requestClass = 'post';
  return { exempt: false, requestClass, artifact: false };
}
