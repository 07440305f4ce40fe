import { randomBytes } from 'node:crypto';
import { chmod, link, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PlatIdentity, type KeyFileJson } from './identity';

/** Key file problems the user must fix: missing, unreadable, too widely readable, malformed. */
export class KeyFileError extends Error {
  override readonly name = 'KeyFileError';
}

const PRIVATE_MODE = 0o600;
const PRIVATE_DIR_MODE = 0o700;
/** Group and other permission bits: any of them set means someone else may read the keys. */
const SHARED_BITS = 0o077;

export interface LoadedKeyFile {
  readonly identity: PlatIdentity;
  readonly file: KeyFileJson;
}

/**
 * Reads a key file, refusing one whose permissions let the group or others access it (as ssh does
 * for private keys). POSIX permissions only: the check is skipped on Windows.
 */
export async function readKeyFile(path: string): Promise<LoadedKeyFile> {
  let mode: number;
  try {
    mode = (await stat(path)).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new KeyFileError(`no key file at ${path} (create one with "plat identity create")`);
    }
    throw new KeyFileError(`cannot read key file ${path}: ${(error as Error).message}`);
  }
  if (process.platform !== 'win32' && (mode & SHARED_BITS) !== 0) {
    const octal = (mode & 0o777).toString(8).padStart(4, '0');
    throw new KeyFileError(
      `key file ${path} has mode ${octal}: it holds private keys and must not be readable by group or others; ` +
        `run "chmod 600 ${path}"`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new KeyFileError(`key file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    const identity = PlatIdentity.fromKeyFile(json);
    return { identity, file: json as KeyFileJson };
  } catch (error) {
    throw new KeyFileError(`key file ${path}: ${(error as Error).message}`);
  }
}

/**
 * Writes a key file with mode 0600 (its directory 0700 when created): to a fresh temporary file in
 * the same directory, then renamed over the target, so a crash never leaves half a key file.
 * Refuses to replace an existing file unless `overwrite` is set.
 */
export async function writeKeyFile(
  path: string,
  contents: KeyFileJson,
  options: { overwrite?: boolean } = {},
): Promise<void> {
  if (!options.overwrite && (await exists(path))) {
    throw new KeyFileError(`key file ${path} already exists; refusing to overwrite it`);
  }
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', PRIVATE_MODE);
  try {
    await handle.chmod(PRIVATE_MODE); // in case the umask left fewer bits than asked; never more
    await handle.writeFile(`${JSON.stringify(contents, null, 2)}\n`, 'utf8');
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    // link() fails with EEXIST, so a file created since the check above is never replaced.
    if (options.overwrite) await rename(temporary, path);
    else await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new KeyFileError(`key file ${path} already exists; refusing to overwrite it`);
    }
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
  await chmod(path, PRIVATE_MODE);
}

/** Whether a file is at `path` (any other error than its absence is thrown). */
export async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
