import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The version of the running code: package.json's, found upward from here (src/ under ts-node and
 * Jest, dist/src/ once built).
 */
export function packageVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (parsed.name === 'plat-api') return parsed.version ?? 'unknown';
  }
  return 'unknown';
}
