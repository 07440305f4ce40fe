import { fakeDid, generateSpaces, seededRng, uuidV7 } from '../../../db/seed/spaces';
import { isPlatDid } from '../../../src/protocol/core/ids';
import { DEFAULT_DOMAIN_PATTERN, DOMAIN_PATTERN } from '../../../src/spaces/domain/space-rules';

describe('seed spaces', () => {
  const now = new Date('2026-06-01T00:00:00.000Z');

  it('generates rows the schema and the service accept', () => {
    const { spaces, memberships, publicLive } = generateSpaces({
      offset: 0,
      total: 500,
      now,
      rng: seededRng(1),
    });
    expect(spaces).toHaveLength(500);
    // 88 of every 100 public and live, 10 private, 2 public but deleted.
    expect(publicLive).toBe(440);
    expect(spaces.filter((s) => !s.isPublic)).toHaveLength(50);
    expect(spaces.filter((s) => s.deletedAt)).toHaveLength(10);
    expect(new Set(spaces.map((s) => s.id)).size).toBe(500);
    expect(new Set(spaces.map((s) => s.domain)).size).toBe(500);
    for (const space of spaces) {
      expect(isPlatDid(space.did)).toBe(true);
      expect(space.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(DOMAIN_PATTERN.test(space.domain)).toBe(true);
      if (DEFAULT_DOMAIN_PATTERN.test(space.domain))
        expect(space.domain).toBe(`space-${space.id.replace(/-/g, '')}`);
      expect(space.lastActivityAt.getTime()).toBeLessThanOrEqual(now.getTime());
      expect(space.createdAt.getTime()).toBeLessThanOrEqual(space.lastActivityAt.getTime());
      // member_count is exact: one active membership per member, the owner first.
      const members = memberships.filter((m) => m.spaceId === space.id);
      expect(members).toHaveLength(space.memberCount);
      expect(members[0].role).toBe('owner');
      expect(members.every((m) => isPlatDid(m.memberDid))).toBe(true);
    }
  });

  it('is reproducible with a seeded random source', () => {
    const a = generateSpaces({ offset: 7, total: 20, now, rng: seededRng(42) });
    const b = generateSpaces({ offset: 7, total: 20, now, rng: seededRng(42) });
    expect(a).toEqual(b);
    expect(fakeDid(seededRng(3))).toBe(fakeDid(seededRng(3)));
    expect(uuidV7(new Date(0x0123456789ab), seededRng(1)).startsWith('01234567-89ab-7')).toBe(true);
  });
});
