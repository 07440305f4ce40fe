import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiArtifacts } from '../src/api-docs/api-artifacts.service';
import { createApp } from '../src/app.factory';
import { loadConfig } from '../src/config/app-config';
import { withScratchDatabase } from './scratch-database';

export const OPENAPI_PATH = join(process.cwd(), 'docs', 'openapi.json');

/**
 * Writes docs/openapi.json from the route metadata; with --check, fails when the committed copy
 * drifted. The file is byte for byte what `GET /openapi.json` serves: two-space JSON with keys
 * sorted at every depth and a final newline (ApiArtifacts), so it is stable and diffs line by
 * line; prettier leaves it alone (.prettierignore), since rewrapping it would break that equality.
 */
async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const json = await withScratchDatabase(async (url) => {
    const app = await createApp(loadConfig({ ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: url }));
    try {
      return app.get(ApiArtifacts).json;
    } finally {
      await app.close();
    }
  });
  if (!check) {
    writeFileSync(OPENAPI_PATH, json);
    process.stdout.write('Wrote docs/openapi.json\n');
    return;
  }
  const committed = readFileSync(OPENAPI_PATH, 'utf8');
  if (committed !== json) {
    process.stderr.write('docs/openapi.json is out of date: run `npm run build && npm run openapi:write`.\n');
    process.exit(1);
  }
  process.stdout.write('openapi:check: docs/openapi.json is current\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
