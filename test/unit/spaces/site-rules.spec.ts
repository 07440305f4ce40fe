import { PROFILE_SCHEMA } from '../../../src/protocol/publishing/domain/content-publisher';
import type { SpaceView } from '../../../src/spaces/domain/space-views';
import { isPublicAddress, publicAddressLookup } from '../../../src/infrastructure/outbound/address-guard';
import { OutboundFetcher } from '../../../src/infrastructure/outbound/outbound-fetcher';
import { HttpsDomainFetcherService } from '../../../src/spaces/services/domain-fetcher.service';
import { topicAccessProblem } from '../../../src/spaces/dto/site-requests.dto';
import { Space } from '../../../src/spaces/entities/space.entity';
import { SpaceCountersService } from '../../../src/spaces/services/space-counters.service';
import { profileDocument } from '../../../src/spaces/domain/profile-document';
import {
  clampActiveWithinDays,
  EXTERNAL_DOMAIN_PATTERN,
  normalizeCategory,
  slugFromTitle,
  SLUG_PATTERN,
  topicNameKey,
} from '../../../src/spaces/domain/space-rules';

describe('site rules', () => {
  it('normalizes categories: trimmed, whitespace collapsed, lower-cased; blank is none', () => {
    expect(normalizeCategory('  Board \t  GAMES\n')).toBe('board games');
    expect(normalizeCategory('crafts')).toBe('crafts');
    expect(normalizeCategory('Ärger')).toBe('ärger');
    for (const blank of ['', '   ', '\t\n']) expect(normalizeCategory(blank)).toBeNull();
  });

  it('clamps activeWithinDays to whole days from 1 to 365', () => {
    const cases: [number, number][] = [
      [-10, 1],
      [0, 1],
      [0.5, 1],
      [1, 1],
      [2.9, 2],
      [30, 30],
      [365, 365],
      [365.5, 365],
      [1e9, 365],
    ];
    for (const [given, clamped] of cases) expect(clampActiveWithinDays(given)).toBe(clamped);
  });

  it('makes slugs from titles that are valid slugs, and keys topic names case-insensitively', () => {
    const cases: [string, string][] = [
      ['About us', 'about-us'],
      ['Über uns & Co.', 'uber-uns-co'],
      ['  --Hello,   World!--  ', 'hello-world'],
      ['Crème brûlée 2024', 'creme-brulee-2024'],
      ['!!!', 'page'],
      ['日本語', 'page'],
      [`${'word '.repeat(40)}`, 'word-'.repeat(16).slice(0, 79)],
    ];
    for (const [title, slug] of cases) {
      expect(slugFromTitle(title)).toBe(slug);
      expect(SLUG_PATTERN.test(slugFromTitle(title))).toBe(true);
      expect(slugFromTitle(title).length).toBeLessThanOrEqual(80);
    }
    expect(topicNameKey('  Book   Club ')).toBe('book club');
  });

  it('accepts public host names only as external domains', () => {
    for (const ok of ['example.org', 'makers.example.org', 'a-b.example', 'x1.io', 'xn--bcher-kva.example']) {
      expect(EXTERNAL_DOMAIN_PATTERN.test(ok)).toBe(true);
    }
    for (const bad of [
      'localhost',
      'example',
      '127.0.0.1',
      '1.2.3.4',
      'Example.org',
      'example.org.',
      '.example.org',
      '-a.example',
      'a-.example',
      'a_b.example',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(127)}org`,
      'example.org:443',
      'https://example.org',
    ]) {
      expect(EXTERNAL_DOMAIN_PATTERN.test(bad)).toBe(false);
    }
  });

  it('validates topic access: a tier or {groups: [group ids]}', () => {
    for (const ok of ['public', 'signedIn', 'members', { groups: [`group_${'a'.repeat(32)}`] }]) {
      expect(topicAccessProblem(ok)).toBeNull();
    }
    for (const bad of [
      'Public',
      'groups',
      '',
      null,
      undefined,
      7,
      [],
      ['public'],
      {},
      { groups: [] },
      { groups: 'group_x' },
      { groups: ['group_1'] },
      { groups: [`topic_${'a'.repeat(32)}`] },
      { groups: [`group_${'a'.repeat(32)}`, `group_${'a'.repeat(32)}`] },
      { groups: [`group_${'a'.repeat(32)}`], extra: true },
    ]) {
      expect(topicAccessProblem(bad)).toEqual(expect.stringContaining('access'));
    }
  });
});

describe('domain fetcher address guard', () => {
  it('tells public addresses from loopback, private, link-local and reserved ones', () => {
    for (const open of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(open)).toBe(true);
    }
    for (const closed of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      // NAT64, 6to4, Teredo and IPv4-compatible forms of internal IPv4 addresses
      // (docs/decisions/0019-the-domain-fetcher-guards-itself.md).
      '64:ff9b::7f00:1',
      '64:ff9b::a9fe:a9fe',
      '2002:7f00:1::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '::127.0.0.1',
      'not an address',
    ]) {
      expect(isPublicAddress(closed)).toBe(false);
    }
  });

  it('refuses to resolve a name to a loopback address', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      publicAddressLookup('localhost', {}, (err) => resolve(err)),
    );
    expect(error?.message).toMatch(/public addresses/);
  });

  it.each(['127.0.0.1', '8.8.8.8', '[::1]', '::1', '64:ff9b::7f00:1'])(
    'refuses the IP literal %s as a domain, before any connection',
    async (literal) => {
      await expect(domainFetcher().get(literal, '/.well-known/plat-did')).rejects.toThrow(
        /is an IP address, not a domain/,
      );
    },
  );

  it('never connects to a domain that resolves to a loopback address', async () => {
    await expect(domainFetcher().get('localhost', '/.well-known/plat-did')).rejects.toThrow(
      /public addresses/,
    );
  });
});

/** Domain verification's fetcher over the service's guarded fetcher, no private host let through. */
function domainFetcher(): HttpsDomainFetcherService {
  return new HttpsDomainFetcherService(
    new OutboundFetcher({ allowedPrivateHosts: [], publicBaseUrl: 'http://localhost' }),
  );
}

describe('space profile projection and worded counts', () => {
  const space = (fields: Partial<Space>): Space =>
    ({ displayName: 'Makers', description: null, links: [], ...fields }) as Space;

  it('projects name, description and links as profile/v1, leaving out what is empty', () => {
    expect(profileDocument(space({}))).toEqual({ $schema: PROFILE_SCHEMA, name: 'Makers' });
    expect(
      profileDocument(
        space({
          description: 'We make',
          links: [
            { url: 'https://a.example', label: 'A', description: 'first' },
            { url: 'https://b.example', label: null, description: null },
          ],
        }),
      ),
    ).toEqual({
      $schema: PROFILE_SCHEMA,
      name: 'Makers',
      description: 'We make',
      links: [{ uri: 'https://a.example', label: 'A', description: 'first' }, { uri: 'https://b.example' }],
    });
  });

  it('says "no private posts" until posts count, and words registered counts only', async () => {
    const counters = new SpaceCountersService();
    const space = { id: 's' } as SpaceView;
    expect(await counters.summaries(space)).toEqual({ privatePostCountSummary: 'no private posts' });
    counters.register('eventCountSummary', async () => 12);
    counters.register('privatePostCountSummary', async () => 1_000_000);
    expect(await counters.summaries(space)).toEqual({
      privatePostCountSummary: 'millions of private posts',
      eventCountSummary: 'dozens of events',
    });
  });
});
