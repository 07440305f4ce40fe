import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyFileError, PlatIdentity, readKeyFile, writeKeyFile } from '../../../src/protocol/client';

const posix = process.platform === 'win32' ? describe.skip : describe;

posix('key files', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'plat-keys-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is written with mode 0600 in a 0700 directory it creates, and read back', async () => {
    const identity = PlatIdentity.create();
    const path = join(dir, 'nested', 'plat', 'keys.json');
    await writeKeyFile(path, identity.toKeyFile());
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'nested', 'plat'))).mode & 0o777).toBe(0o700);
    expect(await readdir(join(dir, 'nested', 'plat'))).toEqual(['keys.json']); // no temporary left
    const { identity: loaded } = await readKeyFile(path);
    expect(loaded.did).toBe(identity.did);
  });

  it.each([0o644, 0o640, 0o604, 0o660])('refuses to read a key file with mode %s', async (mode) => {
    const path = join(dir, 'keys.json');
    await writeKeyFile(path, PlatIdentity.create().toKeyFile());
    await chmod(path, mode);
    const error = await readKeyFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyFileError);
    expect((error as Error).message).toContain(`mode 0${mode.toString(8)}`);
    expect((error as Error).message).toContain('must not be readable by group or others');
    expect((error as Error).message).toContain('chmod 600');
  });

  it('does not overwrite an existing key file unless asked, and stays 0600 when it does', async () => {
    const path = join(dir, 'keys.json');
    const first = PlatIdentity.create();
    await writeKeyFile(path, first.toKeyFile());
    await expect(writeKeyFile(path, PlatIdentity.create().toKeyFile())).rejects.toThrow(/already exists/);
    expect((await readKeyFile(path)).identity.did).toBe(first.did);

    const second = PlatIdentity.create();
    await writeKeyFile(path, second.toKeyFile(), { overwrite: true });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readKeyFile(path)).identity.did).toBe(second.did);
  });

  it('explains a missing, non-JSON or invalid key file', async () => {
    await expect(readKeyFile(join(dir, 'none.json'))).rejects.toThrow(/no key file .*plat identity create/);
    const path = join(dir, 'bad.json');
    await writeFile(path, '{not json', { mode: 0o600 });
    await expect(readKeyFile(path)).rejects.toThrow(/not valid JSON/);
    await writeFile(path, '{"format":"other"}', { mode: 0o600 });
    await expect(readKeyFile(path)).rejects.toThrow(KeyFileError);
  });
});
