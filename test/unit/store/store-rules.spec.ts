import {
  CURRENCY_CODES,
  slugCandidate,
  slugCandidatesPattern,
  slugFrom,
  STORE_SLUG_PATTERN,
} from '../../../src/store/domain/store-rules';

describe('store rules', () => {
  it('derives slugs that match the slug form, leaving room for a suffix', () => {
    expect(slugFrom('  Über Bag! (2nd edition) ', 'product')).toBe('uber-bag-2nd-edition');
    expect(slugFrom('東京', 'product')).toBe('product');
    expect(slugFrom('---', 'release')).toBe('release');
    const long = slugFrom('word '.repeat(40), 'product');
    expect(long.length).toBeLessThanOrEqual(76);
    expect(long.endsWith('-')).toBe(false);
    expect(STORE_SLUG_PATTERN.test(slugCandidate(long, 999))).toBe(true);
    expect(slugCandidate('zine', 1)).toBe('zine');
    expect(slugCandidate('zine', 3)).toBe('zine-3');
  });

  it('keeps every candidate of a long name within 80 characters, however many are taken', () => {
    const plain = slugFrom('x'.repeat(200), 'product');
    expect(plain).toBe('x'.repeat(76));
    expect(slugCandidate(plain, 999)).toBe(`${'x'.repeat(76)}-999`);
    expect(slugCandidate(plain, 1000)).toBe(`${'x'.repeat(75)}-1000`);
    expect(slugCandidate(plain, 10_000)).toBe(`${'x'.repeat(74)}-10000`);
    // A cut that would end on a hyphen drops it.
    const name = `${'Limited Edition Screen Print '.repeat(7)}x`.slice(0, 200);
    expect(name).toHaveLength(200);
    const base = slugFrom(name, 'product');
    expect(base).toHaveLength(76);
    expect(slugCandidate(base, 1000)).toBe(`${base.slice(0, 75)}-1000`);
    expect(base.charAt(73)).toBe('-');
    expect(slugCandidate(base, 10_000)).toBe(`${base.slice(0, 73)}-10000`);
    for (const slug of [plain, base]) {
      for (const attempt of [1000, 10_000, 100_000, Number.MAX_SAFE_INTEGER]) {
        const candidate = slugCandidate(slug, attempt);
        expect(candidate.length).toBeLessThanOrEqual(80);
        expect(STORE_SLUG_PATTERN.test(candidate)).toBe(true);
        expect(candidate).not.toMatch(/--/);
      }
    }
  });

  it('gives distinct candidates, each matched by the pattern freeSlug reads taken ones with', () => {
    const like = (pattern: string) => new RegExp(`^${pattern.replace(/%/g, '.*')}$`);
    const bases = [slugFrom('x'.repeat(200), 'p'), slugFrom('Screen Print '.repeat(15), 'p'), 'zine'];
    for (const base of bases) {
      const pattern = like(slugCandidatesPattern(base));
      const candidates = Array.from({ length: 20_000 }, (_, index) => slugCandidate(base, index + 1));
      candidates.push(slugCandidate(base, Number.MAX_SAFE_INTEGER));
      expect(new Set(candidates).size).toBe(candidates.length);
      expect(candidates.filter((slug) => !STORE_SLUG_PATTERN.test(slug))).toEqual([]);
      expect(candidates.slice(1).filter((slug) => !pattern.test(slug))).toEqual([]);
    }
    expect(slugCandidatesPattern('zine')).toBe('zine-%');
    expect(slugCandidatesPattern('x'.repeat(76))).toBe(`${'x'.repeat(63)}%`);
  });

  it('accepts exactly 1 to 80 characters of [a-z0-9-]', () => {
    for (const slug of ['a', 'a-b', '-x-', '0', 'a'.repeat(80)])
      expect(STORE_SLUG_PATTERN.test(slug)).toBe(true);
    for (const slug of ['', 'A', 'a b', 'a_b', 'a'.repeat(81), 'é', 'product_0190f1a2']) {
      expect(STORE_SLUG_PATTERN.test(slug)).toBe(false);
    }
  });

  it('knows current ISO 4217 codes in upper case, not the placeholders', () => {
    for (const code of ['EUR', 'USD', 'JPY', 'CHF', 'KWD', 'VED', 'SLE'])
      expect(CURRENCY_CODES).toContain(code);
    for (const code of ['usd', 'XXX', 'XTS', 'XXX1', 'ABC']) expect(CURRENCY_CODES).not.toContain(code);
  });
});
