import { ArgumentMetadata, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { invalidRequest } from './errors/api-error';
import { toValidationDetails } from './errors/validation-details';
import { BodyShapeLimits, bodyShapeViolation } from './validation/body-shape';
import { nulTextPath } from './validation/nul-text';

/**
 * Unknown members are refused, values are converted to the DTO types, failures are a 400 with
 * details. Before any of that, for every route at once: a body or query wider or deeper than the
 * configured shape is refused (its validation would cost CPU in proportion to its size, or
 * overflow the stack), then text holding U+0000, since no column can store it (see `nulTextPath`).
 */
class RequestValidationPipe extends ValidationPipe {
  constructor(
    private readonly shape: BodyShapeLimits,
    options: ValidationPipeOptions,
  ) {
    super(options);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') {
      const excess = bodyShapeViolation(value, this.shape);
      if (excess) throw invalidRequest('Invalid request', [excess]);
      refuseNulText(value, metadata);
    }
    return super.transform(value, metadata);
  }
}

function refuseNulText(value: unknown, metadata: ArgumentMetadata): void {
  const path = nulTextPath(value);
  if (path === null) return;
  const member = path || metadata.data || metadata.type;
  throw invalidRequest('Invalid request', [
    { path: member, message: `${member} must not contain NUL (U+0000) characters` },
  ]);
}

export function createValidationPipe(config: AppConfig): ValidationPipe {
  const shape = { maxMembers: config.BODY_MAX_MEMBERS, maxDepth: config.BODY_MAX_DEPTH };
  return new RequestValidationPipe(shape, {
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => invalidRequest('Invalid request', toValidationDetails(errors)),
  });
}
