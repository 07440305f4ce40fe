import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import {
  ArchiveRejected,
  isSafeEntryName,
  readSpaceArchive,
  streamArchiveMedia,
} from '../../../src/exports/domain/archive-reader';
import type { StoredImportArchive } from '../../../src/media';

const LIMITS = { maxEntries: 50, maxEntryBytes: 64 * 1024, maxTotalBytes: 256 * 1024 };
const SPACE = 'space_0196f0a2c4d87e3f9b1a5c6d7e8f9012';
const AT = '2026-01-01T00:00:00.000Z';

function validFiles(): Record<string, unknown> {
  return {
    'manifest.json': {
      format: 'plat-space-export',
      version: 1,
      space: { id: SPACE, did: 'did:plat:space' },
      requestedBy: 'did:plat:owner',
      exportId: 'export_0196f0a2c4d87e3f9b1a5c6d7e8f9012',
      createdAt: AT,
    },
    'space.json': {
      id: SPACE,
      did: 'did:plat:space',
      displayName: 'Imported',
      isPublic: true,
      joinMode: 'open',
      links: [],
      role: 'owner',
      createdAt: AT,
      updatedAt: AT,
    },
    'topics.json': [],
    'pages.json': [],
    'posts.json': [],
  };
}

async function zipOf(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(entries)) {
    zip.addBuffer(typeof content === 'string' ? Buffer.from(content) : content, name);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const jsonEntries = (files: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(files).map(([name, value]) => [name, JSON.stringify(value)]));

async function rejection(bytes: Buffer, limits = LIMITS): Promise<string> {
  const error = await readSpaceArchive(bytes, limits).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ArchiveRejected);
  return (error as Error).message;
}

/** The import's reading of an untrusted archive (docs/decisions/0220). */
describe('space archive reader', () => {
  it('reads the layout’s JSON files and skips README, schemas and media unread', async () => {
    const bytes = await zipOf({
      README: 'hello',
      ...jsonEntries(validFiles()),
      'schemas/posts.schema.json': '{ not even json',
      'media/media_x/file.png': Buffer.alloc(10),
    });
    const files = await readSpaceArchive(bytes, LIMITS);
    expect([...files.keys()].sort()).toEqual(
      ['manifest.json', 'pages.json', 'posts.json', 'space.json', 'topics.json'].sort(),
    );
    expect((files.get('space.json') as { displayName: string }).displayName).toBe('Imported');
  });

  it('refuses a file that does not match its schema, naming the file', async () => {
    const files = validFiles();
    files['topics.json'] = [{ id: 'nope' }];
    expect(await rejection(await zipOf(jsonEntries(files)))).toMatch(
      /^topics\.json does not match its schema/,
    );
  });

  it('refuses a file that is not JSON, a missing file, and a personal export', async () => {
    const notJson = { ...jsonEntries(validFiles()), 'posts.json': '[{' };
    expect(await rejection(await zipOf(notJson))).toBe('posts.json is not JSON');
    const missing = jsonEntries(validFiles());
    delete missing['space.json'];
    expect(await rejection(await zipOf(missing))).toBe('space.json is missing');
    const personal = validFiles();
    (personal['manifest.json'] as { format: string }).format = 'plat-personal-export';
    expect(await rejection(await zipOf(jsonEntries(personal)))).toMatch(/^manifest\.json does not match/);
  });

  it('refuses an entry whose path leaves the archive, before reading anything', async () => {
    // yazl refuses such a name: one of the same length is written, then renamed in the bytes.
    const bytes = await zipOf({ ...jsonEntries(validFiles()), 'aa/evil.json': '{}' });
    const renamed = Buffer.from(
      bytes.toString('latin1').split('aa/evil.json').join('../evil.json'),
      'latin1',
    );
    expect(await rejection(renamed)).toBe('Unsafe entry name: "../evil.json"');
  });

  it('refuses an oversized entry (a zip bomb) by its declared size, and too many entries', async () => {
    const bomb = { ...jsonEntries(validFiles()), 'posts.json': Buffer.alloc(LIMITS.maxEntryBytes + 1, 0x20) };
    expect(await rejection(await zipOf(bomb))).toBe(
      `posts.json is larger than ${LIMITS.maxEntryBytes} bytes`,
    );
    expect(await rejection(await zipOf(jsonEntries(validFiles())), { ...LIMITS, maxEntries: 3 })).toBe(
      'The archive has more than 3 entries',
    );
    expect(
      await rejection(await zipOf(jsonEntries(validFiles())), { ...LIMITS, maxTotalBytes: 100 }),
    ).toMatch(/larger than 100 bytes together/);
  });

  it('reads a stored archive range by range as it reads one in memory', async () => {
    // docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md
    // A media entry larger than yauzl's read of the archive's end, skipped unread: never fetched.
    const media = randomBytes(200_000);
    const bytes = await zipOf({ ...jsonEntries(validFiles()), 'media/media_x/file.png': media });
    const ranges: [number, number][] = [];
    const stored: StoredImportArchive = {
      size: bytes.length,
      range: (start, end) => {
        ranges.push([start, end]);
        return Readable.from([bytes.subarray(start, end)]);
      },
    };
    expect(await readSpaceArchive(stored, LIMITS)).toEqual(await readSpaceArchive(bytes, LIMITS));
    expect(ranges.length).toBeGreaterThan(1);
    expect(ranges.every(([start, end]) => end - start < media.length)).toBe(true);
  });

  it('hands the media files named to a consumer as streams, each bounded, the others unread', async () => {
    const png = Buffer.alloc(3000, 1);
    const pdf = Buffer.alloc(20, 2);
    const bytes = await zipOf({
      ...jsonEntries(validFiles()),
      'media/a/photo.png': png,
      'media/b/paper.pdf': pdf,
      'media/c/other.bin': Buffer.alloc(5),
    });
    const taken = new Map<string, Buffer>();
    const take = async (path: string, body: Readable) => {
      const chunks: Buffer[] = [];
      for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
      taken.set(path, Buffer.concat(chunks));
    };
    const paths = new Map([
      ['media/a/photo.png', 4096],
      ['media/b/paper.pdf', 4096],
    ]);
    await streamArchiveMedia(bytes, paths, LIMITS, take);
    expect(taken).toEqual(
      new Map([
        ['media/a/photo.png', png],
        ['media/b/paper.pdf', pdf],
      ]),
    );

    const refusal = (promise: Promise<void>) =>
      promise.then(
        () => null,
        (error: Error) => error,
      );
    const tooLarge = await refusal(
      streamArchiveMedia(bytes, new Map([['media/a/photo.png', 2999]]), LIMITS, take),
    );
    expect(tooLarge).toBeInstanceOf(ArchiveRejected);
    expect(tooLarge?.message).toBe('media/a/photo.png is larger than 2999 bytes');
    const missing = await refusal(
      streamArchiveMedia(bytes, new Map([['media/d/gone.png', 10]]), LIMITS, take),
    );
    expect(missing?.message).toBe('media/d/gone.png is missing');
    // A consumer's own fault (the store) is not the archive's: thrown as it is, so the job retries.
    const storeDown = new Error('store down');
    const fault = await refusal(
      streamArchiveMedia(bytes, paths, LIMITS, async () => {
        throw storeDown;
      }),
    );
    expect(fault).toBe(storeDown);
  });

  it('refuses bytes that are not a zip', async () => {
    expect(await rejection(Buffer.from('PK not really'))).toBe('The archive is not a readable zip file');
  });

  it('judges entry names', () => {
    for (const name of ['../x', 'a/../../x', '/etc/passwd', 'a\\b', 'C:x', 'a//b', './a', 'a\u0000b'])
      expect([name, isSafeEntryName(name)]).toEqual([name, false]);
    for (const name of ['posts.json', 'media/media_1/a.png', 'schemas/chains/identity.schema.json'])
      expect([name, isSafeEntryName(name)]).toEqual([name, true]);
  });
});
