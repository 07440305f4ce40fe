import type { OpenAPIObject } from '@nestjs/swagger';
import { ERROR_CODES } from '../common/errors/api-error';
import { PROOF_SECURITY } from '../common/auth/access.decorators';
import { RATE_LIMIT_SCOPES } from '../infrastructure/rate-limit/budgets';

type PathItem = OpenAPIObject['paths'][string];
type OperationObject = NonNullable<PathItem['get']>;
type ResponseObject = Exclude<NonNullable<OperationObject['responses'][string]>, { $ref: string }>;
type ParameterObject = Exclude<NonNullable<OperationObject['parameters']>[number], { $ref: string }>;

const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** Routes whose own 4xx bodies differ from the service-wide one (they declare theirs). */
const OWN_ERROR_BODIES = [/^\/relay\//, /^\/\.well-known\//];

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const json = (schema: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${schema}` } },
});
const header = (description: string) => ({ description, schema: { type: 'integer' } });

/** RateLimit-* headers of the budget nearest to running out (design.md §6), on charged responses. */
const RATE_LIMIT_HEADER_DEFINITIONS = {
  'RateLimit-Limit': header('requests allowed in the window of the budget nearest to running out'),
  'RateLimit-Remaining': header('requests left in that window'),
  'RateLimit-Reset': header('seconds until that window resets'),
  'Retry-After': header('seconds to wait, rounded up'),
};
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': headerRef('RateLimit-Limit'),
  'RateLimit-Remaining': headerRef('RateLimit-Remaining'),
  'RateLimit-Reset': headerRef('RateLimit-Reset'),
};

const ERROR_RESPONSES: { [name: string]: ResponseObject } = {
  InvalidRequest: {
    description: '`E_INVALID_REQUEST`: the input breaks a rule; `details` names each failing member',
    content: json('ErrorBody'),
  },
  Unauthorized: {
    description: '`E_UNAUTHORIZED`: the request proof is missing or does not verify (design.md §3)',
    content: json('ErrorBody'),
  },
  Forbidden: {
    description:
      '`E_FORBIDDEN`: verified, but not allowed (key role, credential scope, space role, an erasure of the account pending)',
    content: json('ErrorBody'),
  },
  NotFound: {
    description: '`E_NOT_FOUND`: the one constant body for anything unknown, malformed or hidden',
    content: json('ErrorBody'),
  },
  Conflict: {
    description:
      '`E_CONFLICT`: a replayed write proof, an `Idempotency-Key` in use or used with another ' +
      'request, or a state the request conflicts with',
    content: json('ErrorBody'),
  },
  PayloadTooLarge: {
    description: '`E_PAYLOAD_TOO_LARGE`: a JSON body over 1 MiB, or an upload past its limit',
    content: json('ErrorBody'),
  },
  TooManyRequests: {
    description:
      '`E_RATE_LIMITED`: a budget is spent (design.md §6); `Retry-After` in whole seconds. A ' +
      '`pop-capture` refusal carries no RateLimit-* headers',
    headers: { 'Retry-After': headerRef('Retry-After'), ...RATE_LIMIT_HEADERS },
    content: json('RateLimitedBody'),
  },
  InternalError: { description: '`E_INTERNAL`: an unexpected failure', content: json('ErrorBody') },
  ServiceUnavailable: {
    description:
      '`E_SERVICE_UNAVAILABLE`: a store the request needs (rate limits, replay, revocations) cannot answer',
    content: json('ErrorBody'),
  },
};

const ERROR_SCHEMAS = {
  ErrorBody: {
    type: 'object',
    description: 'Every error of the service (design.md §5)',
    required: ['code', 'message'],
    properties: {
      code: { type: 'string', enum: [...new Set(Object.values(ERROR_CODES))].sort() },
      message: { type: 'string' },
      details: {
        type: 'array',
        description: 'validation failures only: one entry per failing rule',
        items: {
          type: 'object',
          required: ['path', 'message'],
          properties: { path: { type: 'string' }, message: { type: 'string' } },
        },
      },
    },
  },
  RateLimitedBody: {
    type: 'object',
    required: ['code', 'message', 'scope', 'retryAfterMs'],
    properties: {
      code: { type: 'string', enum: ['E_RATE_LIMITED'] },
      message: { type: 'string' },
      // api-spec.md "Errors": the scope values are an open set, so they are listed, not enumerated.
      scope: {
        type: 'string',
        // `upload-quota`: a media mint past the uploader's daily bytes (docs/decisions/0114-media-upload-quota.md).
        description: `Which budget ran out; open set, known values: ${[...RATE_LIMIT_SCOPES, 'upload-quota'].join(', ')}`,
        example: RATE_LIMIT_SCOPES[0],
      },
      retryAfterMs: { type: 'integer', minimum: 0 },
    },
  },
};

/**
 * Adds the error responses every client meets to each operation, from what the operation declares:
 * 429/503/500 everywhere (every request is charged); 400 where input is read (query or body); 413
 * with a body; 401/403 where a proof is verified; 409 for proof-signed writes (replay); 404 where
 * the path names something. Responses an operation declares itself are kept. RateLimit-* headers
 * go on every success response.
 */
export function withErrorResponses(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...ERROR_SCHEMAS },
    responses: { ...document.components?.responses, ...ERROR_RESPONSES },
    headers: { ...document.components?.headers, ...RATE_LIMIT_HEADER_DEFINITIONS },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    const ownBodies = OWN_ERROR_BODIES.some((pattern) => pattern.test(path));
    for (const method of METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (operation) addResponses(operation, method, ownBodies);
    }
  }
  return document;
}

function addResponses(operation: OperationObject, method: string, ownBodies: boolean): void {
  const responses = operation.responses;
  for (const [status, response] of Object.entries(responses)) {
    if (!response || '$ref' in response) continue;
    if (/^2/.test(status)) response.headers = { ...RATE_LIMIT_HEADERS, ...response.headers };
    // A declared error without a body schema has the service-wide one.
    else if (!ownBodies && !response.content && Number(status) in ERROR_CODES)
      response.content = json('ErrorBody');
  }
  const add = (status: number, name: string) => {
    if (!(String(status) in responses)) responses[String(status)] = ref(name);
  };
  const parameters = (operation.parameters ?? []).filter(
    (parameter): parameter is ParameterObject => !('$ref' in parameter),
  );
  const verifiesProof = (operation.security ?? []).some((entry) => PROOF_SECURITY in entry);
  if (!ownBodies) {
    if (operation.requestBody || parameters.some((parameter) => parameter.in === 'query'))
      add(400, 'InvalidRequest');
    if (verifiesProof) {
      add(401, 'Unauthorized');
      add(403, 'Forbidden');
      if (WRITE_METHODS.has(method)) add(409, 'Conflict');
    }
    if (parameters.some((parameter) => parameter.in === 'path') || verifiesProof) add(404, 'NotFound');
  }
  if (operation.requestBody) add(413, 'PayloadTooLarge');
  add(429, 'TooManyRequests');
  add(500, 'InternalError');
  add(503, 'ServiceUnavailable');
}
