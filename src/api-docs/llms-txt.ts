import { OpenAPIObject } from '@nestjs/swagger';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const AUTH_NOTES: Record<string, string> = {
  anonymous: 'anonymous',
  optional: 'optional auth (anonymous projection, or the granting user view with a proof/credential)',
  gated: 'request proof + credential (or bare identity proof)',
  credential: 'request proof + credential',
  identity: 'bare identity proof',
  'key-proof': 'anonymous; the signed envelope is the capability',
};

/** A concise plain-text guide for LLM agents, generated from the same metadata as the OpenAPI document. */
export function buildLlmsTxt(document: OpenAPIObject): string {
  const lines = [
    `# ${document.info.title}`,
    '',
    `> ${document.info.description ?? ''} Version ${document.info.version}.`,
    '',
    '## Conventions',
    '- JSON over HTTPS. Entity ids look like `space_<id>`; DIDs like `did:plat:<31 chars>`.',
    '- Listings take `limit` (1-100, default 20) and opaque `after`/`before` cursors; they answer',
    '  `{items, nextCursor, previousCursor?, totalCount?}`. Pass cursors back verbatim.',
    '- Errors are `{"code","message"}`; every hidden, unknown or malformed id is the same 404',
    '  `{"code":"E_NOT_FOUND","message":"Not found"}`. 429 carries `Retry-After`; back off on 503.',
    '- Authenticated calls send `Authorization: PLAT <request proof JWS>` and optionally `X-Credential`.',
    '- Authenticated writes may send `Idempotency-Key` (1-255 visible ASCII) to retry safely: the same',
    '  key and request (new proof) get the first answer again (`Idempotent-Replayed: true`); another',
    '  request with that key is 409.',
    "- After `DELETE /profile`, while the erasure is pending, the account's own proofs are refused (403)",
    '  except on the routes marked "while erasure is pending"; `POST /profile/restore` cancels.',
    '- The full description: /openapi.json (or /openapi.yaml).',
    '',
    '## Routes',
  ];
  for (const path of Object.keys(document.paths).sort()) {
    const item = document.paths[path] as Record<
      string,
      {
        summary?: string;
        'x-auth-class'?: string;
        'x-scopes'?: string[];
        'x-allowed-while-erasure-pending'?: boolean;
      }
    >;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const scopes = operation['x-scopes'] ? `; scopes: ${operation['x-scopes'].join(', ')}` : '';
      const leaving = operation['x-allowed-while-erasure-pending'] ? '; also while erasure is pending' : '';
      const auth = `${AUTH_NOTES[operation['x-auth-class'] ?? 'anonymous']}${scopes}${leaving}`;
      const summary = operation.summary ? ` - ${operation.summary}` : '';
      lines.push(`- ${method.toUpperCase()} ${path}${summary} [${auth}]`);
    }
  }
  return `${lines.join('\n')}\n`;
}
