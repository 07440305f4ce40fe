import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { invalidRequest } from './errors/api-error';
import { toValidationDetails } from './errors/validation-details';
import { nulTextPath } from './validation/nul-text';

/**
 * Unknown members are refused, values are converted to the DTO types, failures are a 400 with
 * details. Text holding U+0000 anywhere in a body or query is refused first, for every route at
 * once, since no column can store it (see `nulTextPath`).
 */
class RequestValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') refuseNulText(value, metadata);
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

export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => invalidRequest('Invalid request', toValidationDetails(errors)),
  });
}
