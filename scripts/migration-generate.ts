import 'reflect-metadata';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { DataSource } from 'typeorm';
import { schemaDrift } from '../src/infrastructure/database/schema-drift';
import { bootContext } from './boot-context';
import { withScratchDatabase } from './scratch-database';

const MIGRATIONS_DIR = join(process.cwd(), 'db', 'migrations');

/**
 * Writes db/migrations/<timestamp>-<Name>.ts with the SQL the entities need, formatted by prettier
 * with the repository's settings. Nothing to register: db/migrations/index.ts finds the file
 * (docs/decisions/0132-adding-a-module.md).
 */
async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name))
    throw new Error('usage: npm run migration:generate -- PascalCaseName');
  const drift = await withScratchDatabase(async (url) => {
    const context = await bootContext(url);
    try {
      return await schemaDrift(context.get(DataSource));
    } finally {
      await context.close();
    }
  });
  if (drift.up.length === 0) {
    process.stdout.write('No changes: entities and migrations agree.\n');
    return;
  }
  // Later than every committed migration (TypeORM orders them by this number), even where a
  // committed one carries a hand-picked future timestamp.
  const latest = Math.max(
    0,
    ...readdirSync(MIGRATIONS_DIR).map((file) => Number(/^(\d+)-/.exec(file)?.[1] ?? 0)),
  );
  const timestamp = Math.max(Date.now(), latest + 1);
  const className = `${name}${timestamp}`;
  const statements = (queries: string[]) =>
    queries.map((query) => `    await queryRunner.query(${JSON.stringify(query)});`).join('\n');
  const source = `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${statements(drift.up)}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${statements(drift.down.reverse())}
  }
}
`;
  const file = `${timestamp}-${name}`;
  const path = join(MIGRATIONS_DIR, `${file}.ts`);
  const options = await resolveConfig(path);
  writeFileSync(path, await format(source, { ...options, filepath: path }));
  process.stdout.write(`Wrote db/migrations/${file}.ts\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
