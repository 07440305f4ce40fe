import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';

/** The entries of a comma-separated list, trimmed, empty ones dropped. */
export function originListEntries(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * Whether `entry` is an origin exactly as a browser sends it in `Origin` (http or https, lower
 * case, no default port, nothing after the host): the allow-list is compared as text.
 */
function isExactOrigin(entry: string): boolean {
  try {
    const url = new URL(entry);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === entry;
  } catch {
    return false;
  }
}

/**
 * CORS_ALLOWED_ORIGINS: exact origins such as `https://app.example.com`. `*` is refused, as is
 * `null` (the opaque origin every sandboxed page shares): the setting is an allow-list.
 */
@ValidatorConstraint({ name: 'isOriginList' })
export class IsOriginList implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && originListEntries(value).every(isExactOrigin);
  }

  defaultMessage(args: ValidationArguments): string {
    const bad =
      typeof args.value === 'string' ? originListEntries(args.value).filter((e) => !isExactOrigin(e)) : [];
    return (
      `${args.property} must list origins like https://app.example.com (scheme, lower-case host, ` +
      `optional non-default port, nothing after; no * or null), separated by commas; not: ${bad.join(', ')}`
    );
  }
}
