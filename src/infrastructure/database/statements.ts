/**
 * A module's fixed SQL statements, by name, declared in its repository
 * (docs/decisions/0131-a-repository-per-module.md). The repository runs them; `npm run
 * queries:write` writes every declared statement to `docs/queries/<module>.sql`, and CI's
 * `queries:check` fails when that file is not current, so a review shows each statement a change
 * alters. A statement built from parts is declared as a group of its fixed variants.
 */
export interface StatementGroup {
  readonly [name: string]: string | StatementGroup;
}

const DECLARED = Symbol.for('plat.statements');

export type DeclaredStatements<T extends StatementGroup> = T & { readonly [DECLARED]: string };

/** Declares `statements` as the fixed SQL of `owner` (the repository class's name). */
export function defineStatements<T extends StatementGroup>(
  owner: string,
  statements: T,
): DeclaredStatements<T> {
  return Object.freeze(
    Object.assign(Object.create(null), statements, { [DECLARED]: owner }),
  ) as DeclaredStatements<T>;
}

/** The owner of a value declared by defineStatements, else undefined. */
export function declaredOwner(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const owner = (value as Record<symbol, unknown>)[DECLARED];
  return typeof owner === 'string' ? owner : undefined;
}

/** Every statement of a group, flattened to dotted names, in declaration order. */
export function flattenStatements(group: StatementGroup, prefix = ''): [name: string, text: string][] {
  return Object.entries(group).flatMap(([name, value]) =>
    typeof value === 'string'
      ? [[prefix + name, value] as [string, string]]
      : flattenStatements(value, `${prefix}${name}.`),
  );
}
