import { ArgumentMetadata, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { invalidRequest } from './errors/api-error';
import { toValidationDetails } from './errors/validation-details';
import { BodyShapeLimits, bodyShapeViolation, RefusedBody } from './validation/body-shape';
import { UnstorableText, unstorableText } from './validation/nul-text';
import { cacheRuleLookups } from '../infrastructure/performance/class-validator-rule-lookup-cache';

/**
 * Unknown members are refused, values are converted to the DTO types, failures are a 400 with
 * details. Before any of that, for every route at once: a body the parser refused by its shape
 * (`RefusedBody`) or a query wider or deeper than the configured shape is refused (its validation
 * would cost CPU in proportion to its size, or overflow the stack), then text no column can store
 * (U+0000, lone surrogates: `nul-text.ts`).
 */
class RequestValidationPipe extends ValidationPipe {
  constructor(
    private readonly shape: BodyShapeLimits,
    options: ValidationPipeOptions,
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (value instanceof RefusedBody) throw invalidRequest('Invalid request', [value.detail]);
    if (metadata.type === 'body' || metadata.type === 'query') {
      // A body's shape was bounded on its bytes by the parser (the only way a body arrives);
      // a query is bounded here.
      if (metadata.type === 'query') {
        const excess = bodyShapeViolation(value, this.shape);
        if (excess) throw invalidRequest('Invalid request', [excess]);
      }
      refuseUnstorableText(value, metadata);
    }
    return super.transform(value, metadata);
  }
}

const UNSTORABLE_MESSAGES: Record<UnstorableText['problem'], string> = {
  nul: 'must not contain NUL (U+0000) characters',
  'lone-surrogate': 'must be well-formed Unicode (no lone surrogates)',
};

/** Text no column can store: U+0000 (refused first, wherever it is), then lone UTF-16 surrogates. */
function refuseUnstorableText(value: unknown, metadata: ArgumentMetadata): void {
  const found = unstorableText(value);
  if (found === null) return;
  const member = found.path || metadata.data || metadata.type;
  throw invalidRequest('Invalid request', [
    { path: member, message: `${member} ${UNSTORABLE_MESSAGES[found.problem]}` },
  ]);
}

export function createValidationPipe(config: AppConfig): ValidationPipe {
  cacheRuleLookups();
  const shape = { maxMembers: config.BODY_MAX_MEMBERS, maxDepth: config.BODY_MAX_DEPTH };
  return new RequestValidationPipe(shape, {
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => invalidRequest('Invalid request', toValidationDetails(errors)),
  });
}
