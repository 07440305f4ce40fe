import { readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { MigrationInterface } from 'typeorm';

export type MigrationClass = new () => MigrationInterface;

/** `<13-digit timestamp>-<PascalName>.ts` (`.js` once built), holding the class `<PascalName><timestamp>`. */
const MIGRATION_FILE = /^(\d{13})-([A-Z][A-Za-z0-9]*)\.(?:ts|js)$/;

/**
 * Every migration file of `dir`, in timestamp order: a module adds its migration file and nothing
 * else (docs/decisions/0132-adding-a-module.md). Loud rather than lenient: a file that is not
 * `<timestamp>-<Name>` or does not export `<Name><timestamp>`, or two files with one timestamp,
 * stop the process instead of being skipped.
 */
export function discoverMigrations(dir: string, extension = extname(__filename)): MigrationClass[] {
  const found = readdirSync(dir)
    .filter((name) => name.endsWith(extension) && !name.endsWith('.d.ts') && name !== `index${extension}`)
    .map((name) => {
      const match = MIGRATION_FILE.exec(name);
      if (!match) throw new Error(`db/migrations/${name}: a migration file is named <timestamp>-<Name>`);
      return { name, timestamp: match[1], className: `${match[2]}${match[1]}` };
    })
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  return found.map(({ name, timestamp, className }, index) => {
    if (found[index - 1]?.timestamp === timestamp) {
      throw new Error(`db/migrations/${name}: timestamp ${timestamp} is taken by ${found[index - 1].name}`);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = require(join(dir, name)) as Record<string, unknown>;
    const migration = exported[className];
    if (typeof migration !== 'function') {
      throw new Error(`db/migrations/${name}: exports no class ${className}`);
    }
    return migration as MigrationClass;
  });
}

/**
 * Every migration, in order, found in this folder (no list to edit):
 * `npm run migration:generate -- <Name>` writes a new one here.
 */
export const MIGRATIONS: MigrationClass[] = discoverMigrations(__dirname);
