import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';

/**
 * `TRUST_PROXY`: `false`, the socket's peer is the client; `true`, the first `X-Forwarded-For`
 * entry is (behind an edge proxy that overwrites the header); a number of hops, the entry that many
 * places from the right is (behind proxies that append to it: the entries left of it are the
 * client's own choice). Express's `trust proxy` setting reads the same values the same way
 * (docs/decisions/0124-trust-proxy-hops.md).
 */
export type TrustProxy = boolean | number;

/** More hops than any real chain of proxies; a larger number is a typo. */
export const MAX_PROXY_HOPS = 16;

/**
 * `true`/`yes`/`on` and `false`/`no`/`off`/`0` as before; other digits are a hop count (so `1`,
 * which used to mean `true`, now means one hop: the rightmost entry). Anything else stays text and
 * is refused at boot (it used to be read as `false`).
 */
export const toTrustProxy = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const text = value.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(text)) return true;
  if (['false', 'no', 'off', '0'].includes(text)) return false;
  return /^[0-9]{1,3}$/.test(text) ? Number(text) : value;
};

@ValidatorConstraint({ name: 'isTrustProxy' })
export class IsTrustProxy implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return (
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_PROXY_HOPS)
    );
  }

  defaultMessage(args: ValidationArguments): string {
    return `${args.property} must be true, false or a number of proxy hops from 1 to ${MAX_PROXY_HOPS}`;
  }
}
