import { randomUUID } from 'node:crypto';
import { type FileHandle, open, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MediaStorage } from '../storage/media-storage';
import { sizeLimit } from '../../domain/upload-streams';
import { ScratchBudget } from '../../domain/scratch-budget';

/**
 * The scratch directory has less free space than a copy needs. Not a verdict on the media: the job
 * fails and the queue retries it once other copies are gone (docs/decisions/0112-media-scratch-volume.md).
 */
export class ScratchSpaceShort extends Error {
  constructor(
    readonly bytes: number,
    readonly free: number,
    readonly directory: string,
  ) {
    super(`${bytes} bytes to copy, ${free} free in the scratch directory ${directory} (MEDIA_SCRATCH_DIR)`);
  }
}

/** Bytes an unprivileged process may still write in the file system holding `directory`. */
export async function freeBytesIn(directory: string): Promise<number> {
  const stats = await statfs(directory);
  return Number(stats.bavail) * Number(stats.bsize);
}

/**
 * A stored object as a local file for ffprobe and ffmpeg (an MP4 may keep its index at the end,
 * which a pipe cannot reach). The local store's file is read in place: no copy. An object in S3
 * is streamed to a temporary file in the scratch directory (MEDIA_SCRATCH_DIR), within the shared
 * scratch budget and only when the directory's file system has room for it, and removed after use
 * (docs/decisions/0111-media-processing-containment.md, docs/decisions/0112-media-scratch-volume.md).
 */
export class ProcessingInput {
  constructor(
    private readonly storage: MediaStorage,
    private readonly budget: ScratchBudget,
    private readonly directory = tmpdir(),
    private readonly freeBytes: (directory: string) => Promise<number> = freeBytesIn,
  ) {}

  /** Runs `use` on a local file holding the object's `size` bytes. */
  async withFile<T>(key: string, size: number, use: (path: string) => Promise<T>): Promise<T> {
    const inPlace = this.storage.localPath(key);
    if (inPlace !== null) return use(inPlace);
    // An object longer than recorded would overrun the reservation: the copy fails instead.
    return this.withCopy(
      size,
      async (handle) => pipeline(await this.storage.get(key), sizeLimit(size), handle.createWriteStream()),
      use,
    );
  }

  private async withCopy<T>(
    size: number,
    write: (handle: FileHandle) => Promise<void>,
    use: (path: string) => Promise<T>,
  ): Promise<T> {
    const release = await this.budget.reserve(size);
    const path = join(this.directory, `plat-media-${randomUUID()}`);
    try {
      // Checked once the budget admits the copy, just before it starts: a disk that is fuller than
      // the budget assumes (a volume smaller than MEDIA_SCRATCH_MAX_BYTES, other writers) refuses
      // the copy instead of filling up and getting the pod evicted.
      const free = await this.freeBytes(this.directory);
      if (free < size) throw new ScratchSpaceShort(size, free, this.directory);
      // Opened before copying, so a failed copy cannot create the file after the cleanup below ran.
      const handle = await open(path, 'wx');
      try {
        await write(handle);
      } finally {
        await handle.close().catch(() => undefined);
      }
      return await use(path);
    } finally {
      await rm(path, { force: true });
      release();
    }
  }
}
