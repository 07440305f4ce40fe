import { ValidationPipe } from '@nestjs/common';
import { invalidRequest } from './errors/api-error';
import { toValidationDetails } from './errors/validation-details';

/** Unknown members are refused, values are converted to the DTO types, failures are a 400 with details. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => invalidRequest('Invalid request', toValidationDetails(errors)),
  });
}
