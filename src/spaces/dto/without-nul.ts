import { registerDecorator, ValidationArguments } from 'class-validator';

const NUL = '\u0000';
const MAX_DEPTH = 8;

/** Whether a value holds a NUL character in any string of it (arrays and objects walked, keys too). */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes(NUL) || containsNul(item, depth + 1));
}

/**
 * Refuses text holding U+0000 (at any depth of the member): PostgreSQL `text` cannot store it, so it
 * would otherwise reach the database and fail there as a 500 instead of a 400 with details.
 */
export function WithoutNul() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'withoutNul',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => !containsNul(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? propertyName} must not contain NUL (U+0000) characters`,
      },
    });
}
