import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, IsInt, IsString, MetadataStorage, validate } from 'class-validator';
import { cacheRuleLookups } from '../../../src/infrastructure/performance/class-validator-rule-lookup-cache';

class Paged {
  @IsInt()
  limit!: number;
}

class Named extends Paged {
  @IsString()
  name!: string;
}

/**
 * class-validator's per-class rule lookup, kept once per class (docs/decisions/0128-performance-patches.md).
 * The cache replaces `getTargetValidationMetadatas` on the global storage: a class-validator upgrade
 * that renames it, changes its arguments or stops looking rules up through it fails here.
 */
describe('rule lookup cache', () => {
  it("this class-validator's storage looks rules up by (constructor, schema, always, strictGroups, groups)", () => {
    const lookup = MetadataStorage.prototype.getTargetValidationMetadatas;
    expect(typeof lookup).toBe('function');
    expect(lookup.length).toBe(5);
    expect(getMetadataStorage()).toBeInstanceOf(MetadataStorage);
  });

  it('validate looks the rules up through the global storage, once per object, without groups', async () => {
    const storage = getMetadataStorage();
    const spy = jest.spyOn(storage, 'getTargetValidationMetadatas');
    try {
      await validate(plainToInstance(Named, { limit: 1, name: 'x' }));
      expect(spy.mock.calls).toEqual([[Named, undefined, false, false, undefined]]);
    } finally {
      spy.mockRestore();
    }
  });

  beforeAll(() => cacheRuleLookups());

  const rulesOf = (constructor: new () => object, groups?: string[]) =>
    getMetadataStorage().getTargetValidationMetadatas(constructor, '', false, false, groups);

  it('answers a class with the same rules, its own and its parents', () => {
    const first = rulesOf(Named);
    expect(rulesOf(Named)).toBe(first);
    expect(first.map((rule) => rule.propertyName).sort()).toEqual(['limit', 'name']);
    expect(rulesOf(Paged).map((rule) => rule.propertyName)).toEqual(['limit']);
  });

  it('still validates by every rule, inherited ones included', async () => {
    const errors = await validate(plainToInstance(Named, { limit: 'ten', name: 7 }));
    expect(errors.map((error) => error.property).sort()).toEqual(['limit', 'name']);
    expect(await validate(plainToInstance(Named, { limit: 10, name: 'ok' }))).toEqual([]);
  });

  it('passes lookups by group through', () => {
    expect(rulesOf(Named, ['admin'])).not.toBe(rulesOf(Named, ['admin']));
  });

  it('installs once', () => {
    const installed = getMetadataStorage().getTargetValidationMetadatas;
    cacheRuleLookups();
    expect(getMetadataStorage().getTargetValidationMetadatas).toBe(installed);
  });
});
