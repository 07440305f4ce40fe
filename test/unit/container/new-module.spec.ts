import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '../../..');
/** What the generator and the checks read: the service, its migrations, scripts, test support, settings. */
const COPIED = [
  'src',
  'db',
  'scripts',
  'test/support',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
  'jest.config.js',
  'jest.swc.js',
  '.swcrc',
  '.prettierrc',
  '.prettierignore',
  '.dependency-cruiser.cjs',
  'eslint.config.mjs',
  '.gitignore',
];

interface Run {
  status: number;
  output: string;
}

function run(cwd: string, command: string, args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

const bin = (path: string) => join(root, 'node_modules', path);

/**
 * `npm run new:module` (scripts/new-module.ts, docs/decisions/0132-adding-a-module.md) on a copy
 * of the repository: the skeleton type-checks, its e2e test passes on the real AppModule, the
 * boundary checks and prettier pass, and it touches one file outside its folder (src/app.module.ts)
 * besides its migration.
 */
describe('npm run new:module', () => {
  let copy: string;

  beforeAll(async () => {
    copy = mkdtempSync(join(tmpdir(), 'plat-new-module-'));
    for (const path of COPIED) cpSync(join(root, path), join(copy, path), { recursive: true });
    symlinkSync(realpathSync(join(root, 'node_modules')), join(copy, 'node_modules'));
    const git = (...args: string[]) =>
      run(copy, 'git', ['-c', 'user.name=test', '-c', 'user.email=test@plat.test', ...args]);
    await git('init', '-q');
    await git('add', '-A');
    await git('commit', '-q', '-m', 'before');
  }, 60_000);

  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('writes a module that passes its checks, touching src/app.module.ts and its migration outside its folder', async () => {
    const generated = await run(copy, 'npm', ['run', '--silent', 'new:module', '--', 'bookmarks']);
    expect(generated.output).toContain('registered BookmarksModule in src/app.module.ts');
    expect(generated.status).toBe(0);

    // What a team adding a module changes: its folder, its e2e tests, its migration, app.module.ts.
    const status = await run(copy, 'git', ['status', '--porcelain', '--untracked-files=all']);
    expect(status.output.trimEnd().split('\n').sort()).toEqual([
      ' M src/app.module.ts',
      expect.stringMatching(/^\?\? db\/migrations\/\d{13}-Bookmarks\.ts$/),
      '?? src/bookmarks/bookmarks.module.ts',
      '?? src/bookmarks/bookmarks.repository.ts',
      '?? src/bookmarks/controllers/bookmarks.controller.ts',
      '?? src/bookmarks/dto/bookmark.dto.ts',
      '?? src/bookmarks/entities/bookmark.entity.ts',
      '?? src/bookmarks/events/README.md',
      '?? src/bookmarks/index.ts',
      '?? src/bookmarks/services/bookmarks.presenter.ts',
      '?? src/bookmarks/services/bookmarks.service.ts',
      '?? test/e2e/bookmarks/bookmarks.e2e-spec.ts',
    ]);

    // Independent checks, side by side. The type check covers what the generator wrote (and all it
    // imports); src/app.module.ts's one added line is proven by the e2e test, which boots it, and the
    // rest of the repository by `npm run typecheck` (a whole-repository check costs ~45 s of CPU).
    writeFileSync(
      join(copy, 'tsconfig.generated.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        include: ['src/bookmarks/**/*.ts', 'test/e2e/bookmarks/**/*.ts', 'db/migrations/*-Bookmarks.ts'],
      }),
    );
    const [typecheck, e2e, cruise, tables, prettier] = await Promise.all([
      run(copy, process.execPath, [bin('typescript/bin/tsc'), '--noEmit', '-p', 'tsconfig.generated.json']),
      run(copy, process.execPath, [bin('jest/bin/jest.js'), '--ci', 'test/e2e/bookmarks']),
      run(copy, process.execPath, [
        bin('dependency-cruiser/bin/dependency-cruise.mjs'),
        'src',
        '--config',
        '.dependency-cruiser.cjs',
        '--output-type',
        'err',
      ]),
      run(copy, process.execPath, ['scripts/table-ownership.js']),
      run(copy, process.execPath, [
        bin('prettier/bin/prettier.cjs'),
        '--check',
        'src/app.module.ts',
        'src/bookmarks',
        'db/migrations',
        'test/e2e/bookmarks',
      ]),
    ]);
    expect(typecheck).toEqual({ status: 0, output: '' });
    expect(e2e.output).toContain('Tests:       3 passed, 3 total');
    expect(e2e.status).toBe(0);
    expect(cruise.output).toContain('no dependency violations found');
    expect(tables.output).toContain('table-ownership: no violations');
    expect(prettier.status).toBe(0);
  }, 240_000);

  it('refuses a name that exists, a name that is not kebab-case, and a table or view of another module', async () => {
    const again = await run(copy, process.execPath, ['dist/scripts/new-module.js', 'bookmarks']);
    expect(again).toEqual({ status: 1, output: 'new:module: refused: src/bookmarks exists\n' });
    const pascal = await run(copy, process.execPath, ['dist/scripts/new-module.js', 'Bookmarks']);
    expect(pascal.status).toBe(1);
    expect(pascal.output).toContain('"Bookmarks" is not kebab-case');
    const view = await run(copy, process.execPath, ['dist/scripts/new-module.js', 'live-posts']);
    expect(view).toEqual({
      status: 1,
      output: 'new:module: refused: live_posts is a view of another module\n',
    });
    const taken = await run(copy, process.execPath, ['dist/scripts/new-module.js', 'key-proof-ceremonies']);
    expect(taken).toEqual({
      status: 1,
      output: "new:module: refused: the table key_proof_ceremonies is another module's\n",
    });
  });
});
