import { getMetadataStorage } from 'class-validator';

type Lookup = ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas'];

const CACHED = Symbol('plat.ruleLookupCached');

/**
 * class-validator finds a class's rules on every validation by testing every class it knows for
 * inheritance (`getTargetValidationMetadatas`): work in proportion to the number of validated
 * classes, a visible share of each request with a query or a body here
 * (docs/decisions/0097-class-validator-rule-lookups-cached-per-class.md). The rules are fixed once a class is defined (decorators run
 * when it is, after its parents), so the answer per class and options is kept. Lookups by group
 * are passed through (the service validates without groups). Installs once per storage. What to
 * check on a class-validator upgrade: docs/decisions/0128-performance-patches.md.
 */
export function cacheRuleLookups(storage = getMetadataStorage()): void {
  const target = storage as typeof storage & { [CACHED]?: true };
  if (target[CACHED]) return;
  target[CACHED] = true;
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const answers = new Map<Parameters<Lookup>[0], Map<string, ReturnType<Lookup>>>();
  storage.getTargetValidationMetadatas = (constructor, schema, always, strictGroups, groups) => {
    if (groups && groups.length > 0) return lookup(constructor, schema, always, strictGroups, groups);
    let byOptions = answers.get(constructor);
    if (!byOptions) answers.set(constructor, (byOptions = new Map()));
    const key = `${schema}|${always}|${strictGroups}`;
    let rules = byOptions.get(key);
    if (!rules) byOptions.set(key, (rules = lookup(constructor, schema, always, strictGroups, groups)));
    return rules;
  };
}
