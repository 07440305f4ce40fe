import { randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MediaStorage } from '../storage/media-storage';
import { sizeLimit } from '../upload/upload-streams';
import { ScratchBudget } from './scratch-budget';

/**
 * A stored object as a local file for ffprobe and ffmpeg (an MP4 may keep its index at the end,
 * which a pipe cannot reach). The local store's file is read in place: no copy. An object in S3
 * is streamed to a temporary file, within the shared scratch budget, and removed after use
 * (docs/decisions/media-processing-containment.md).
 */
export class ProcessingInput {
  constructor(
    private readonly storage: MediaStorage,
    private readonly budget: ScratchBudget,
    private readonly directory = tmpdir(),
  ) {}

  /** Runs `use` on a local file holding the object's `size` bytes. */
  async withFile<T>(key: string, size: number, use: (path: string) => Promise<T>): Promise<T> {
    const inPlace = this.storage.localPath(key);
    if (inPlace !== null) return use(inPlace);
    const release = await this.budget.reserve(size);
    const path = join(this.directory, `plat-media-${randomUUID()}`);
    try {
      // Opened before copying, so a failed copy cannot create the file after the cleanup below ran.
      const handle = await open(path, 'wx');
      try {
        // An object longer than recorded would overrun the reservation: the copy fails instead.
        await pipeline(await this.storage.get(key), sizeLimit(size), handle.createWriteStream());
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
