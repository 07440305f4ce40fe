import { ValidateBy } from 'class-validator';

const MAX_DEPTH = 8;

/** Whether any string of the value (array items, object keys and members included) holds U+0000. */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return false;
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item, depth + 1));
}

/**
 * Refuses text holding U+0000: PostgreSQL `varchar` and `jsonb` cannot store it, so it would
 * otherwise fail in the database as a 500 instead of a 400 with details.
 */
export function WithoutNul(): PropertyDecorator {
  return ValidateBy({
    name: 'withoutNul',
    validator: {
      validate: (value: unknown) => !holdsNul(value),
      defaultMessage: (args) => `${args?.property ?? 'value'} must not contain NUL (U+0000) characters`,
    },
  });
}
