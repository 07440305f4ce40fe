import { randomUUID } from 'node:crypto';
import { createReadStream, open as openDescriptor } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { ByteRange, checkedKey, MediaStorage, StoredObject, StoredObjectMissing } from './media-storage';

const openDescriptorAsync = promisify(openDescriptor);

/** Bytes being written live here until complete; no key can name it (keys never start with "."). */
const INCOMING = '.incoming';

/**
 * The default media store: files under one directory (MEDIA_DIR). A body is written to a file of
 * its own beside the objects and renamed into place once complete, so a reader never sees half an
 * object and a failed body leaves nothing behind.
 */
export class LocalDiskStorage extends MediaStorage {
  private readonly root: string;

  constructor(directory: string) {
    super();
    this.root = resolve(directory);
  }

  async put(key: string, body: Readable): Promise<StoredObject> {
    const target = this.pathOf(key);
    const incoming = join(this.root, INCOMING, randomUUID());
    await mkdir(dirname(incoming), { recursive: true });
    // The file is opened before any byte flows: a stream that opens lazily could create it after a
    // failed body's cleanup had already run, leaving a stray file behind.
    const file = await open(incoming, 'wx');
    try {
      await pipeline(body, file.createWriteStream());
      const { size } = await stat(incoming);
      await mkdir(dirname(target), { recursive: true });
      await rename(incoming, target);
      return { size };
    } catch (error) {
      await file.close().catch(() => undefined);
      await rm(incoming, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      // Opened before the stream is handed out, so a missing object is known here; a descriptor
      // stream reads on libuv's callbacks (a FileHandle's stream settles a promise per read and
      // per close; docs/decisions/0091-stored-files-read-through-a-descriptor-stream.md).
      const fd = await openDescriptorAsync(this.pathOf(key), 'r');
      return createReadStream('', { fd, ...(range ? { start: range.start, end: range.end } : {}) });
    } catch (error) {
      if (isMissing(error)) throw new StoredObjectMissing(key);
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const found = await stat(this.pathOf(key));
      return found.isFile() ? { size: found.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** Objects are files renamed into place once complete and never rewritten: readable in place. */
  override localPath(key: string): string {
    return this.pathOf(key);
  }

  async list(prefix: string, limit: number): Promise<string[]> {
    try {
      const entries = await readdir(this.pathOf(prefix), { withFileTypes: true });
      return entries
        .filter((entry) => entry.isFile())
        .slice(0, limit)
        .map((entry) => `${prefix}/${entry.name}`);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  }

  private pathOf(key: string): string {
    return join(this.root, checkedKey(key));
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}
