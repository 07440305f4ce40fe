import { registerDecorator, ValidationArguments } from 'class-validator';

/**
 * A rule over a member and its siblings (the cross-field price rules): fails with `message` when
 * `rule(value, object)` is false.
 */
export function Holds<T extends object>(
  rule: (value: unknown, object: T) => boolean,
  message: string,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'holds',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message },
      validator: { validate: (value: unknown, args: ValidationArguments) => rule(value, args.object as T) },
    });
}
