import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { MediaProcessingService } from '../../../src/media/services/processing/media-processing.service';
import {
  freeBytesIn,
  ProcessingInput,
  ScratchSpaceShort,
} from '../../../src/media/services/processing/processing-input';
import { ScratchBudget, ScratchTooSmall } from '../../../src/media/domain/scratch-budget';
import { ToolFailed } from '../../../src/media/services/processing/ffmpeg-tools';
import { LocalDiskStorage } from '../../../src/media/services/storage/local-disk-storage';
import { MediaStorage, StoredObject } from '../../../src/media/services/storage/media-storage';

/** A store without local files (as S3): objects are buffers in memory. */
class RemoteStore extends MediaStorage {
  readonly objects = new Map<string, Buffer>();
  put(): Promise<StoredObject> {
    throw new Error('unused');
  }
  get(key: string): Promise<Readable> {
    return Promise.resolve(Readable.from([this.objects.get(key)!]));
  }
  stat(key: string): Promise<StoredObject | null> {
    const bytes = this.objects.get(key);
    return Promise.resolve(bytes ? { size: bytes.length } : null);
  }
  exists(key: string): Promise<boolean> {
    return Promise.resolve(this.objects.has(key));
  }
  delete(key: string): Promise<void> {
    this.objects.delete(key);
    return Promise.resolve();
  }
  list(prefix: string, limit: number): Promise<string[]> {
    return Promise.resolve(
      [...this.objects.keys()].filter((key) => key.startsWith(`${prefix}/`)).slice(0, limit),
    );
  }
}

/** Waits (file I/O, not a clock) until `holds`, at most two seconds. */
async function until(holds: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!holds() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('scratch space of media processing (0111-media-processing-containment)', () => {
  let scratch: string;

  beforeEach(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'plat-scratch-'));
  });

  afterEach(() => rm(scratch, { recursive: true, force: true }));

  it('hands the local store’s file to the tools in place: no copy, no budget', async () => {
    const mediaDir = await mkdtemp(join(tmpdir(), 'plat-scratch-store-'));
    try {
      const store = new LocalDiskStorage(mediaDir);
      await store.put('m/original-1', Readable.from([Buffer.from('bytes')]));
      const budget = new ScratchBudget(1);
      const input = new ProcessingInput(store, budget, scratch);
      const seen = await input.withFile('m/original-1', 5, async (path) => {
        expect(await readdir(scratch)).toEqual([]);
        return path;
      });
      expect(seen).toBe(join(mediaDir, 'm/original-1'));
      expect(budget.inUse).toBe(0);
    } finally {
      await rm(mediaDir, { recursive: true, force: true });
    }
  });

  it('copies a remote object to a temporary file within the budget, and removes it after', async () => {
    const store = new RemoteStore();
    store.objects.set('m/a', Buffer.from('0123456789'));
    const budget = new ScratchBudget(10);
    const input = new ProcessingInput(store, budget, scratch);
    const read = await input.withFile('m/a', 10, async (path) => {
      expect(budget.inUse).toBe(10);
      return readFile(path, 'utf8');
    });
    expect(read).toBe('0123456789');
    expect(await readdir(scratch)).toEqual([]);
    expect(budget.inUse).toBe(0);
  });

  it('a job waits while other jobs’ copies fill the budget, then runs (first come, first served)', async () => {
    const store = new RemoteStore();
    for (const key of ['m/a', 'm/b', 'm/c']) store.objects.set(key, Buffer.alloc(6));
    const budget = new ScratchBudget(10);
    const input = new ProcessingInput(store, budget, scratch);
    const running: string[] = [];
    const finish: Record<string, () => void> = {};
    const run = (key: string) =>
      input.withFile(key, 6, async () => {
        running.push(key);
        await new Promise<void>((resolve) => (finish[key] = resolve));
      });
    const jobs = [run('m/a'), run('m/b'), run('m/c')];
    await until(() => running.length === 1);
    expect(running).toEqual(['m/a']);
    // The others wait for room: only one copy exists, and no other job starts meanwhile.
    expect((await readdir(scratch)).length).toBe(1);
    expect(budget.inUse).toBe(6);
    finish['m/a']();
    await until(() => running.length === 2);
    expect(running).toEqual(['m/a', 'm/b']);
    expect((await readdir(scratch)).length).toBe(1);
    finish['m/b']();
    await until(() => running.length === 3);
    finish['m/c']();
    await Promise.all(jobs);
    expect(running).toEqual(['m/a', 'm/b', 'm/c']);
    expect(budget.inUse).toBe(0);
  });

  it('an object longer than its recorded size fails the copy (never more than reserved is written)', async () => {
    const store = new RemoteStore();
    store.objects.set('m/a', Buffer.alloc(20));
    const budget = new ScratchBudget(100);
    const input = new ProcessingInput(store, budget, scratch);
    await expect(input.withFile('m/a', 10, async () => 'used')).rejects.toThrow(/larger than 10 bytes/);
    expect(await readdir(scratch)).toEqual([]);
    expect(budget.inUse).toBe(0);
  });

  it('a file larger than the whole budget is refused at once', async () => {
    await expect(new ScratchBudget(10).reserve(11)).rejects.toBeInstanceOf(ScratchTooSmall);
  });

  describe('free space of the scratch directory (0112-media-scratch-volume)', () => {
    it('refuses a copy the directory’s file system has no room for, before writing a byte, and frees the budget', async () => {
      const store = new RemoteStore();
      store.objects.set('m/a', Buffer.alloc(10));
      const budget = new ScratchBudget(100);
      const asked: string[] = [];
      const input = new ProcessingInput(store, budget, scratch, (directory) => {
        asked.push(directory);
        return Promise.resolve(9);
      });
      const used = jest.fn();
      const refusal = await input.withFile('m/a', 10, used).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(ScratchSpaceShort);
      expect((refusal as ScratchSpaceShort).message).toBe(
        `10 bytes to copy, 9 free in the scratch directory ${scratch} (MEDIA_SCRATCH_DIR)`,
      );
      expect(asked).toEqual([scratch]);
      expect(used).not.toHaveBeenCalled();
      expect(await readdir(scratch)).toEqual([]);
      expect(budget.inUse).toBe(0);
    });

    it('is a retryable failure: not one of the verdicts that fail the media for good', async () => {
      const refusal = new ScratchSpaceShort(10, 9, scratch);
      // MediaProcessingService.process fails the media only on ToolFailed and ScratchTooSmall; anything
      // else is rethrown, so the queue retries the job (attempts with backoff) and the sweep ends it
      // only after MEDIA_PROCESSING_TTL.
      expect(refusal).not.toBeInstanceOf(ToolFailed);
      expect(refusal).not.toBeInstanceOf(ScratchTooSmall);
      const rows = {
        byId: () => Promise.resolve({ id: 'm', state: 'pending', uploadedAt: new Date(), storageKey: 'm/a' }),
        processed: jest.fn(),
        processingFailed: jest.fn(),
      };
      const processing = new MediaProcessingService(
        {} as never,
        rows as never,
        { MEDIA_SCRATCH_MAX_BYTES: 100, mediaScratchDir: scratch } as never,
        new RemoteStore(),
        { counter: () => ({ inc: jest.fn() }) } as never,
        { stored: () => Promise.reject(refusal) } as never,
      );
      await expect(processing.process('m')).rejects.toBe(refusal);
      expect(rows.processingFailed).not.toHaveBeenCalled();
      expect(rows.processed).not.toHaveBeenCalled();
    });

    it('copies when the room is exactly the file', async () => {
      const store = new RemoteStore();
      store.objects.set('m/a', Buffer.from('0123456789'));
      const input = new ProcessingInput(store, new ScratchBudget(100), scratch, () => Promise.resolve(10));
      expect(await input.withFile('m/a', 10, (path) => readFile(path, 'utf8'))).toBe('0123456789');
    });

    it('reads the free space of the real directory with statfs', async () => {
      const free = await freeBytesIn(scratch);
      expect(Number.isSafeInteger(free)).toBe(true);
      expect(free).toBeGreaterThan(0);
    });
  });
});
