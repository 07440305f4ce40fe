import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { GroupRequest } from '../../../src/memberships/dto/membership-requests.dto';
import { containsNul } from '../../../src/spaces/dto/without-nul';

describe('text without NUL (PostgreSQL text cannot hold U+0000)', () => {
  it('finds a NUL in strings, arrays, objects and keys, and nothing elsewhere', () => {
    expect(containsNul('a\u0000')).toBe(true);
    expect(containsNul([{ url: 'x', label: 'b\u0000' }])).toBe(true);
    expect(containsNul({ 'k\u0000': 'v' })).toBe(true);
    expect(containsNul('plain text, \\u0000 spelled out')).toBe(false);
    expect(containsNul([{ url: 'x', label: null }, 3, true])).toBe(false);
    expect(containsNul(null)).toBe(false);
    expect(containsNul(undefined)).toBe(false);
  });

  it('makes a group name or description with NUL invalid at that member', async () => {
    const problems = async (body: object) =>
      (await validate(plainToInstance(GroupRequest, body))).map((error) => error.property);
    expect(await problems({ name: 'Crew' })).toEqual([]);
    expect(await problems({ name: 'Cr\u0000ew' })).toEqual(['name']);
    expect(await problems({ name: 'Crew', description: 'x\u0000' })).toEqual(['description']);
  });
});
