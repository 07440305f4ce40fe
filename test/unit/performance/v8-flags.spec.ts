import { spawnSync } from 'node:child_process';
import { V8_FLAGS } from '../../../src/infrastructure/performance/v8-flags';

/**
 * The V8 flags main.ts sets before serving (docs/decisions/0128-performance-patches.md). V8 answers
 * an unknown flag given to `setFlagsFromString` with a line on stderr and nothing else, so a Node
 * upgrade that drops a flag would silently undo the patch: this fails instead.
 */
describe('V8 flags', () => {
  /** What this Node says when a child sets `flag` as main.ts does, and when it is given on the command line. */
  function tried(flag: string) {
    const atRunTime = spawnSync(
      process.execPath,
      ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`],
      {
        encoding: 'utf8',
      },
    );
    const onCommandLine = spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8' });
    return {
      atRunTime: { status: atRunTime.status, output: atRunTime.stdout + atRunTime.stderr },
      onCommandLine: { status: onCommandLine.status, output: onCommandLine.stdout + onCommandLine.stderr },
    };
  }

  it.each(V8_FLAGS)('this Node accepts %s, at run time and on the command line', (flag) => {
    expect(tried(flag)).toEqual({
      atRunTime: { status: 0, output: '' },
      onCommandLine: { status: 0, output: '' },
    });
  });

  it('this Node lists each flag among its V8 options', () => {
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    for (const flag of V8_FLAGS) expect(options).toContain(`  ${flag.replace(/^--no-/, '--')} (`);
  });

  it('would notice a flag this Node does not know (the check above can fail)', () => {
    const unknown = tried('--no-allocation-site-pretenuring-that-does-not-exist');
    expect(unknown.atRunTime.output).toMatch(/unrecognized flag/);
    expect(unknown.onCommandLine.status).not.toBe(0);
  });
});
