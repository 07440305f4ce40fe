import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { schemaDrift } from '../src/infrastructure/database/schema-drift';
import { bootContext } from './boot-context';
import { withScratchDatabase } from './scratch-database';

/** Fails when the entities and the committed migrations disagree (CI runs it). */
async function main(): Promise<void> {
  const drift = await withScratchDatabase(async (url) => {
    const context = await bootContext(url);
    try {
      return await schemaDrift(context.get(DataSource));
    } finally {
      await context.close();
    }
  });
  if (drift.up.length > 0) {
    process.stderr.write(
      `Entities and migrations disagree; run \`npm run migration:generate -- <Name>\`. Missing SQL:\n${drift.up.join(';\n')};\n`,
    );
    process.exit(1);
  }
  process.stdout.write('migration:check: entities and migrations agree\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
