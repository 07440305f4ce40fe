import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CREDENTIAL_SECURITY, PROOF_SECURITY } from '../common/auth/access.decorators';
import { withErrorResponses } from './error-responses';
import { withIdempotencyKeys } from './idempotency-keys';
import { sortKeysDeep } from './sort-keys';

/**
 * The OpenAPI description generated from the route metadata: sorted keys, operationId = handler
 * name, no server URL (so the committed copy does not depend on where it was generated).
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('PLAT community platform API')
    .setDescription(
      'Public projections of spaces, posts, events and profiles; credential-gated reads and writes.',
    )
    .setVersion('1.0.0-beta')
    .addSecurity(PROOF_SECURITY, {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: '`PLAT <compact JWS>` request proof bound to the method, path and query (design.md §3)',
    })
    .addSecurity(CREDENTIAL_SECURITY, {
      type: 'apiKey',
      in: 'header',
      name: 'X-Credential',
      description: 'PlatCredential issued by the person to the calling app (design.md §4)',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey: string, methodKey: string) => methodKey,
  });
  return sortKeysDeep(withIdempotencyKeys(withErrorResponses(document)));
}
