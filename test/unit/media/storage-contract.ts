import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { MediaStorage, StoredObjectMissing } from '../../../src/media/services/storage/media-storage';

export interface StorageUnderTest {
  storage: MediaStorage;
  /** Anything a failed or finished put left outside the objects (temporary files, open uploads). */
  leftovers(): Promise<string[]>;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A body that sends `first` bytes and then fails, as an upload refused mid-stream does. */
function failingBody(first: Buffer, error = new Error('refused mid-stream')): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(first);
      } else {
        this.destroy(error);
      }
    },
  });
}

/** A body of `size` pseudo-random bytes produced in 64 KiB chunks (never held whole). */
function generatedBody(size: number, seed: string): { body: Readable; digest: Promise<string> } {
  const hash = createHash('sha256');
  let left = size;
  let counter = 0;
  let finish: (digest: string) => void = () => undefined;
  const digest = new Promise<string>((resolve) => (finish = resolve));
  const body = new Readable({
    read() {
      if (left === 0) {
        finish(hash.digest('hex'));
        this.push(null);
        return;
      }
      const chunk = createHash('sha512')
        .update(`${seed}:${counter++}`)
        .digest()
        .subarray(0, 64)
        .toString('hex')
        .repeat(512)
        .slice(0, Math.min(left, 65536));
      const bytes = Buffer.from(chunk, 'latin1');
      left -= bytes.length;
      hash.update(bytes);
      this.push(bytes);
    },
  });
  return { body, digest };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The one contract of `MediaStorage` (design.md §11): every implementation runs these same tests
 * (local disk directly, S3 against a server on loopback).
 */
export function describeStorageContract(name: string, setUp: () => Promise<StorageUnderTest>): void {
  describe(`MediaStorage contract: ${name}`, () => {
    let subject: StorageUnderTest;
    let storage: MediaStorage;

    beforeAll(async () => {
      subject = await setUp();
      storage = subject.storage;
    });

    it('stores a stream and gives the same bytes back, with their size', async () => {
      const bytes = randomBytes(70_000);
      const stored = await storage.put('a1/original', Readable.from([bytes]), { contentType: 'image/png' });
      expect(stored).toEqual({ size: 70_000 });
      expect(await bytesOf(await storage.get('a1/original'))).toEqual(bytes);
      expect(await storage.stat('a1/original')).toEqual({ size: 70_000 });
      expect(await storage.exists('a1/original')).toBe(true);
    });

    it('stores an empty body', async () => {
      expect(await storage.put('a2/empty', Readable.from([]), { contentType: 'text/plain' })).toEqual({
        size: 0,
      });
      expect(await storage.stat('a2/empty')).toEqual({ size: 0 });
      expect((await bytesOf(await storage.get('a2/empty'))).length).toBe(0);
    });

    it('answers byte ranges exactly (first byte, middle, last byte, whole)', async () => {
      const bytes = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 251));
      await storage.put('a3/ranged', Readable.from([bytes]), { contentType: 'audio/mpeg' });
      const range = async (start: number, end: number) =>
        bytesOf(await storage.get('a3/ranged', { start, end }));
      expect(await range(0, 0)).toEqual(bytes.subarray(0, 1));
      expect(await range(100, 299)).toEqual(bytes.subarray(100, 300));
      expect(await range(999, 999)).toEqual(bytes.subarray(999));
      expect(await range(0, 999)).toEqual(bytes);
    });

    it('replaces an object stored at the same key', async () => {
      await storage.put('a4/replaced', Readable.from([Buffer.from('first')]), { contentType: 'text/plain' });
      await storage.put('a4/replaced', Readable.from([Buffer.from('second!')]), {
        contentType: 'text/plain',
      });
      expect((await bytesOf(await storage.get('a4/replaced'))).toString()).toBe('second!');
      expect(await storage.stat('a4/replaced')).toEqual({ size: 7 });
    });

    it('knows an absent object: get fails with StoredObjectMissing, stat is null, exists false', async () => {
      await expect(storage.get('a5/never')).rejects.toBeInstanceOf(StoredObjectMissing);
      await expect(storage.get('a5/never', { start: 0, end: 0 })).rejects.toBeInstanceOf(StoredObjectMissing);
      expect(await storage.stat('a5/never')).toBeNull();
      expect(await storage.exists('a5/never')).toBe(false);
    });

    it('deletes, and deleting an absent object is no error', async () => {
      await storage.put('a6/gone', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
      await storage.delete('a6/gone');
      expect(await storage.exists('a6/gone')).toBe(false);
      await expect(storage.delete('a6/gone')).resolves.toBeUndefined();
    });

    it('lists the keys directly under a folder, at most the limit, none for an absent folder', async () => {
      for (const name of ['one.png', 'two.png', 'three.png']) {
        await storage.put(`a7/variants/${name}`, Readable.from([Buffer.from(name)]), {
          contentType: 'image/png',
        });
      }
      await storage.put('a7/variants/deeper/four.png', Readable.from([Buffer.from('4')]), {
        contentType: 'image/png',
      });
      await storage.put('a7/variants-not/five.png', Readable.from([Buffer.from('5')]), {
        contentType: 'image/png',
      });
      expect((await storage.list('a7/variants', 10)).sort()).toEqual([
        'a7/variants/one.png',
        'a7/variants/three.png',
        'a7/variants/two.png',
      ]);
      expect(await storage.list('a7/variants', 2)).toHaveLength(2);
      expect(await storage.list('a7/nothing', 10)).toEqual([]);
    });

    it('keeps nothing of a body that fails, and leaves an object already at the key as it was', async () => {
      const refusal = new Error('too large');
      await expect(
        storage.put('a7/failed', failingBody(randomBytes(1000), refusal), { contentType: 'image/png' }),
      ).rejects.toBe(refusal);
      expect(await storage.exists('a7/failed')).toBe(false);

      await storage.put('a7/kept', Readable.from([Buffer.from('kept')]), { contentType: 'text/plain' });
      await expect(
        storage.put('a7/kept', failingBody(randomBytes(1000)), { contentType: 'text/plain' }),
      ).rejects.toThrow('refused mid-stream');
      expect((await bytesOf(await storage.get('a7/kept'))).toString()).toBe('kept');
      expect(await subject.leftovers()).toEqual([]);
    });

    it('keeps nothing of a large body that fails after several megabytes', async () => {
      const refusal = new Error('over the limit');
      const { body } = generatedBody(12 * 1024 * 1024, 'big-failing');
      let sent = 0;
      const limited = Readable.from(
        (async function* () {
          for await (const chunk of body) {
            sent += (chunk as Buffer).length;
            if (sent > 11 * 1024 * 1024) throw refusal;
            yield chunk as Buffer;
          }
        })(),
      );
      await expect(storage.put('a8/large-failed', limited, { contentType: 'video/mp4' })).rejects.toBe(
        refusal,
      );
      expect(await storage.exists('a8/large-failed')).toBe(false);
      expect(await subject.leftovers()).toEqual([]);
    });

    it('streams a body larger than one upload part and gives back every byte', async () => {
      const size = 12 * 1024 * 1024 + 12345;
      const { body, digest } = generatedBody(size, 'big');
      expect(await storage.put('a9/large', body, { contentType: 'video/mp4' })).toEqual({ size });
      expect(sha256(await bytesOf(await storage.get('a9/large')))).toBe(await digest);
      const tail = await bytesOf(await storage.get('a9/large', { start: size - 10, end: size - 1 }));
      expect(tail.length).toBe(10);
      expect(await subject.leftovers()).toEqual([]);
    });

    it('refuses keys that could leave its root', async () => {
      for (const key of ['../escape', '/absolute', 'a/../../b', 'a//b', '.hidden', 'a/./b', '']) {
        await expect(storage.stat(key)).rejects.toThrow(/invalid media storage key/);
        await expect(
          storage.put(key, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' }),
        ).rejects.toThrow(/invalid media storage key/);
      }
    });
  });
}
