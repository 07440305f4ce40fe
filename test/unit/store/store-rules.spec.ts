import { CURRENCY_CODES, slugCandidate, slugFrom, STORE_SLUG_PATTERN } from '../../../src/store/store-rules';

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
