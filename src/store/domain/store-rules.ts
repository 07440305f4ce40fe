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
 * cut to 76 so that a `-<n>` suffix up to `-999` fits in 80 characters as it is (`slugCandidate`
 * cuts it further for longer suffixes); `fallback` when nothing is left.
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

/**
 * The n-th candidate of a derived slug: the base, then `base-2`, `base-3`, … Where `base-<n>` would
 * pass 80 characters the base is cut (and a hyphen it then ends on dropped) to make room, so every
 * candidate is a slug whatever n: `…-999` keeps a 76-character base whole, `…-1000` keeps 75.
 * Distinct attempts give distinct candidates.
 */
export function slugCandidate(base: string, attempt: number): string {
  if (attempt === 1) return base;
  const suffix = `-${attempt}`;
  return `${base.slice(0, STORE_LIMITS.slug - suffix.length).replace(/-+$/g, '')}${suffix}`;
}

/**
 * A `LIKE` pattern every candidate of `base` after the first matches (`base-%` while no cut is
 * needed; else the shortest cut of the base any safe-integer attempt can leave, then anything).
 * Slugs hold only `[a-z0-9-]`, so the pattern needs no escaping.
 */
export function slugCandidatesPattern(base: string): string {
  const farthest = slugCandidate(base, Number.MAX_SAFE_INTEGER);
  const stem = farthest.slice(0, farthest.lastIndexOf('-'));
  return stem === base ? `${base}-%` : `${stem}%`;
}

/**
 * The first free candidate of a derived slug (`base`, `base-2`, …: `slugCandidate`) given the
 * `taken` slugs that are `base` or match `slugCandidatesPattern(base)`. Candidates are distinct
 * and each is `base` or matches the pattern: among taken.size + 1 of them at least one is free.
 */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  for (let attempt = 1; attempt <= taken.size + 1; attempt++) {
    const candidate = slugCandidate(base, attempt);
    if (!taken.has(candidate)) return candidate;
  }
  throw new Error(`no free slug among ${taken.size + 1} candidates of ${base}`);
}
