import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverMigrations, MIGRATIONS } from '../../../db/migrations';

const MIGRATIONS_DIR = join(__dirname, '../../../db/migrations');

/** Migrations are found in db/migrations, not listed (docs/decisions/0132-adding-a-module.md). */
describe('migration discovery', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'plat-migrations-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const migration = (name: string, className: string) =>
    writeFileSync(join(dir, name), `export class ${className} { async up() {} async down() {} }\n`);

  it('finds every migration file of db/migrations, in timestamp order', () => {
    const files = readdirSync(MIGRATIONS_DIR)
      .filter((name) => name !== 'index.ts')
      .sort();
    expect(MIGRATIONS.map((type) => type.name)).toEqual(
      files.map((name) => {
        const [, timestamp, title] = /^(\d{13})-(\w+)\.ts$/.exec(name)!;
        return `${title}${timestamp}`;
      }),
    );
  });

  it('orders by timestamp, whatever order the directory lists', () => {
    migration('1700000000002-Second.ts', 'Second1700000000002');
    migration('1700000000001-First.ts', 'First1700000000001');
    expect(discoverMigrations(dir, '.ts').map((type) => type.name)).toEqual([
      'First1700000000001',
      'Second1700000000002',
    ]);
  });

  it('refuses a misnamed file, a missing class and a taken timestamp instead of skipping them', () => {
    migration('first.ts', 'First1700000000001');
    expect(() => discoverMigrations(dir, '.ts')).toThrow('first.ts: a migration file is named');
    rmSync(join(dir, 'first.ts'));
    migration('1700000000001-First.ts', 'Other1700000000001');
    expect(() => discoverMigrations(dir, '.ts')).toThrow('exports no class First1700000000001');
    rmSync(join(dir, '1700000000001-First.ts'));
    migration('1700000000001-First.ts', 'First1700000000001');
    migration('1700000000001-Again.ts', 'Again1700000000001');
    expect(() => discoverMigrations(dir, '.ts')).toThrow('timestamp 1700000000001 is taken');
  });
});
