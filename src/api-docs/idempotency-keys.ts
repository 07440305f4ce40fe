import type { OpenAPIObject } from '@nestjs/swagger';
import { PROOF_SECURITY } from '../common/auth/access.decorators';

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['post']>;

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'] as const;

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    'Makes the write safe to retry. A retry by the same caller (a new request proof) with the same ' +
    'key, method, path, query and body bytes gets the first answer again, byte for byte, with ' +
    '`Idempotent-Replayed: true` (2xx and 4xx answers are kept for 24 h, `IDEMPOTENCY_TTL_SECONDS`); ' +
    'the same key with another request, or while the first still runs, is 409 `E_CONFLICT`; an ' +
    'answer 5xx that wrote nothing is not kept, so its retry runs again',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[!-~]+$' },
};

const IDEMPOTENT_REPLAYED_HEADER = {
  description: '`true` on the recorded answer of an earlier request with the same `Idempotency-Key`',
  schema: { type: 'string', enum: ['true'] },
};

/**
 * Declares the optional `Idempotency-Key` header on every write that verifies a request proof (the
 * writes where the service honours it; anonymous writes ignore it) and `Idempotent-Replayed` on
 * their success responses.
 */
export function withIdempotencyKeys(document: OpenAPIObject): OpenAPIObject {
  document.components = {
    ...document.components,
    parameters: { ...document.components?.parameters, IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
    headers: { ...document.components?.headers, 'Idempotent-Replayed': IDEMPOTENT_REPLAYED_HEADER },
  };
  for (const item of Object.values(document.paths)) {
    for (const method of WRITE_METHODS) {
      const operation = item[method];
      if (operation && verifiesProof(operation)) declareKey(operation);
    }
  }
  return document;
}

function verifiesProof(operation: OperationObject): boolean {
  return (operation.security ?? []).some((entry) => PROOF_SECURITY in entry);
}

function declareKey(operation: OperationObject): void {
  operation.parameters = [
    ...(operation.parameters ?? []),
    { $ref: '#/components/parameters/IdempotencyKey' },
  ];
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!/^2/.test(status) || !response || '$ref' in response) continue;
    response.headers = {
      ...response.headers,
      'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' },
    };
  }
}
