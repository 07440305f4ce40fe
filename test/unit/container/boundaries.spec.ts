import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '../../..');
const fixture = join(root, 'test/fixtures/boundaries');

/** The module-boundary check (`npm run boundaries`, part of `npm run lint`) fails on violations. */
describe('module boundaries (dependency-cruiser)', () => {
  function cruise(cwd: string, ...args: string[]): { status: number; output: string } {
    try {
      const output = execFileSync(
        process.execPath,
        [
          join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
          'src',
          '--config',
          join(root, '.dependency-cruiser.cjs'),
          '--output-type',
          'err',
          ...args,
        ],
        { cwd, encoding: 'utf8', stdio: 'pipe' },
      );
      return { status: 0, output };
    } catch (error) {
      const failed = error as { status: number; stdout: string; stderr: string };
      return { status: failed.status, output: failed.stdout + failed.stderr };
    }
  }

  it("refuses an import of another module's entity or of a file behind its index, and an import cycle", () => {
    const { status, output } = cruise(fixture);
    expect(status).not.toBe(0);
    expect(output).toContain('only-through-index: src/beta/reach-in.ts → src/alpha/alpha.service.ts');
    expect(output).toContain(
      'no-foreign-entities: src/beta/beta.service.ts → src/alpha/entities/thing.entity.ts',
    );
    expect(output).toMatch(/no-circular: src\/gamma\/(first|second)\.ts/);
    // A module's own entity and another module's service are fine.
    expect(output).not.toContain('src/alpha/alpha.service.ts →');
    expect(output).not.toContain('src/beta/beta.service.ts → src/alpha/index.ts');
  });

  it('passes on the service', () => {
    const { status, output } = cruise(root);
    expect(output).toContain('no dependency violations found');
    expect(status).toBe(0);
  });

  it("refuses SQL that names another module's table", () => {
    const script = join(root, 'scripts/table-ownership.js');
    let failure: { status: number; stderr: string } | undefined;
    try {
      execFileSync(process.execPath, [script, '--root', fixture], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      failure = error as { status: number; stderr: string };
    }
    expect(failure?.status).toBe(1);
    expect(failure?.stderr).toContain('src/beta/beta.sql.ts names things (alpha)');
    // Each module declares the views it publishes in its index.ts; its migrations create them.
    expect(failure?.stderr).toContain(
      'src/alpha/index.ts publishes alpha_ghosts, which no migration creates',
    );
    expect(failure?.stderr).toContain('src/beta/index.ts publishes alpha_things, as does alpha');
    expect(failure?.stderr).not.toContain('alpha_things, which no migration creates');
    // The service itself passes.
    expect(execFileSync(process.execPath, [script], { encoding: 'utf8' })).toContain('no violations');
  });

  describe('statements only in repositories (0131-a-repository-per-module)', () => {
    const script = join(root, 'scripts/statement-placement.js');
    const run = (...args: string[]): { status: number; stdout: string; stderr: string } => {
      try {
        const stdout = execFileSync(process.execPath, [script, ...args], { encoding: 'utf8', stdio: 'pipe' });
        return { status: 0, stdout, stderr: '' };
      } catch (error) {
        return error as { status: number; stdout: string; stderr: string };
      }
    };
    it("refuses a service that runs SQL, and not the module's repository", () => {
      const { status, stderr } = run('--root', fixture);
      expect(status).toBe(1);
      expect(stderr).toContain('src/beta/notes.service.ts:12 query: a statement outside a repository');
      expect(stderr).not.toContain('notes.repository.ts');
      expect(stderr.trim().split('\n')).toHaveLength(1);
    });

    it('passes on the service', () => {
      expect(run().stdout).toContain('every statement is in a repository');
    });
  });

  it('makes only configuration, database, Redis and the clock global', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : path.endsWith('.module.ts') ? [path] : [];
      });
    const global = files(join(root, 'src'))
      .filter((path) => /^@Global\(\)/m.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path))
      .sort();
    expect(global).toEqual([
      'src/common/clock/clock.module.ts',
      'src/config/config.module.ts',
      'src/infrastructure/database/database.module.ts',
      'src/infrastructure/redis/redis.module.ts',
    ]);
  });
});
