import { codes as iso4217Codes } from 'currency-codes';

/** Price types (design.md §9); only the first two are ever shown publicly. */
export const PRICE_TYPES = ['one-time', 'pay-what-you-want', 'recurring'] as const;
export type PriceType = (typeof PRICE_TYPES)[number];
export const PUBLIC_PRICE_TYPES: readonly PriceType[] = ['one-time', 'pay-what-you-want'];

export const PRICE_INTERVALS = ['month', 'year'] as const;
export type PriceInterval = (typeof PRICE_INTERVALS)[number];

/**
 * ISO 4217 codes as the `currency-codes` package publishes them (generated from the ISO
 * maintenance agency's list), upper case only. `XXX` (no currency) and `XTS` (testing) name no
 * money a price could be paid in.
 */
export const CURRENCY_CODES: readonly string[] = iso4217Codes().filter(
  (code) => code !== 'XXX' && code !== 'XTS',
);

/** Slugs (design.md §13): lower-case `[a-z0-9-]`, 1–80 characters. Ids contain `_`, slugs never. */
export const STORE_SLUG_PATTERN = /^[a-z0-9-]{1,80}$/;

export const STORE_LIMITS = {
  slug: 80,
  name: 200,
  description: 10_000,
  sortOrder: 1_000_000,
  /** Prices on one product, archived ones included. */
  prices: 20,
  /** Largest amount in minor units: a trillion (ten billion major units at two decimals). */
  amount: 1_000_000_000_000,
  credits: 100,
  creditName: 200,
  creditRole: 200,
  /** Products a release lists. */
  releaseProducts: 100,
} as const;

/**
 * A slug derived from a name or title: accents dropped, every run of other characters one hyphen,
 * cut to 76 so that a `-<n>` suffix fits in 80 characters (up to `-999`); `fallback` when nothing is left.
 */
export function slugFrom(text: string, fallback: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, STORE_LIMITS.slug - 4)
    .replace(/-+$/g, '');
  return slug || fallback;
}

/** The n-th candidate of a derived slug: the base, then `base-2`, `base-3`, … */
export const slugCandidate = (base: string, attempt: number): string =>
  attempt === 1 ? base : `${base}-${attempt}`;
