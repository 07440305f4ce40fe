import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, IsInt, IsString, validate } from 'class-validator';
import { cacheRuleLookups } from '../../../src/common/validation/rule-lookup-cache';

class Paged {
  @IsInt()
  limit!: number;
}

class Named extends Paged {
  @IsString()
  name!: string;
}

/** class-validator's per-class rule lookup, kept once per class (common/validation/rule-lookup-cache.ts). */
describe('rule lookup cache', () => {
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
