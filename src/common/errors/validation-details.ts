import { ValidationError } from 'class-validator';
import { ValidationDetail } from './api-error';

/** Flattens class-validator's tree into `[{path, message}]`, one entry per distinct failure. */
export function toValidationDetails(errors: ValidationError[]): ValidationDetail[] {
  const seen = new Set<string>();
  return collect(errors, '').filter((detail) => {
    const key = `${detail.path}\n${detail.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function collect(errors: ValidationError[], parent: string): ValidationDetail[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ path, message }));
    return [...own, ...collect(error.children ?? [], path)];
  });
}
