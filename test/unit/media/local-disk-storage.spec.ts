import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDiskStorage } from '../../../src/media/services/storage/local-disk-storage';
import { describeStorageContract } from './storage-contract';

let directory: string;

afterAll(() => rm(directory, { recursive: true, force: true }));

describeStorageContract('local disk (MEDIA_DIR)', async () => {
  directory = await mkdtemp(join(tmpdir(), 'plat-media-'));
  return {
    storage: new LocalDiskStorage(directory),
    // Bodies are written under .incoming and renamed into place; nothing may stay there.
    leftovers: async () => {
      try {
        return await readdir(join(directory, '.incoming'));
      } catch {
        return [];
      }
    },
  };
});
