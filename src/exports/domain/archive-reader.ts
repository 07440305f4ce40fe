import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { Readable, Transform } from 'node:stream';
import { fromBuffer, fromRandomAccessReader, RandomAccessReader, type Entry, type ZipFile } from 'yauzl';
import type { StoredImportArchive } from '../../media';
import { SPACE_ARCHIVE_SCHEMAS } from './archive-format';

/**
 * Reading a space export's archive for an import (issue 35 item 5;
 * docs/decisions/0220-space-import-reads-an-archive-it-does-not-trust.md): the archive is untrusted
 * input, so every entry is bounded before and while it is inflated, every name is checked before
 * anything is read, and each JSON file is validated against this service's own schemas (never the
 * schemas the archive carries).
 */

/** The bounds of one read; from config (IMPORT_* settings). */
export interface ArchiveReadLimits {
  /** Entries the central directory may list. */
  maxEntries: number;
  /** Inflated bytes of one JSON file, declared and actual. */
  maxEntryBytes: number;
  /** Inflated bytes of every JSON file read, together. */
  maxTotalBytes: number;
}

/** Why an archive was refused: a message safe to show its owner. */
export class ArchiveRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveRejected';
  }
}

/** The files an import needs; the others of the layout are optional. */
export const REQUIRED_FILES = ['manifest.json', 'space.json', 'topics.json', 'pages.json', 'posts.json'];

/** The archive's JSON files an import reads, parsed and valid against their schemas. */
export type ReadArchive = Map<string, unknown>;

let validators: Map<string, ValidateFunction> | undefined;

function validatorOf(file: string): ValidateFunction {
  if (!validators) {
    const ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: false });
    validators = new Map(
      Object.entries(SPACE_ARCHIVE_SCHEMAS).map(([name, schema]) => [name, ajv.compile(schema)]),
    );
  }
  return validators.get(file)!;
}

/**
 * An entry's name is safe when it is relative, has no `..`, `.` or empty segment, no backslash and
 * no control character: never a path outside the archive, whatever reads it later.
 */
export function isSafeEntryName(name: string): boolean {
  if (name.length === 0 || name.length > 512) return false;
  if (name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name)) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return false;
  const segments = name.replace(/\/$/, '').split('/');
  return segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/**
 * Where an archive's bytes are: in memory, or a stored object read range by range (an import's
 * upload in the media store, docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md),
 * so that an archive of any size is never held whole.
 */
export type ArchiveSource = Buffer | StoredImportArchive;

class RangeReader extends RandomAccessReader {
  constructor(private readonly source: StoredImportArchive) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return this.source.range(start, end);
  }
}

/** Opens the zip; ArchiveRejected when it is not one. */
async function openZip(source: ArchiveSource): Promise<ZipFile> {
  // Names are checked here (isSafeEntryName) so that the message says which one was refused.
  const options = {
    lazyEntries: true,
    strictFileNames: false,
    validateEntrySizes: true,
    decodeStrings: false,
  };
  try {
    return await new Promise<ZipFile>((resolve, reject) => {
      const opened = (error: Error | null, zip: ZipFile) => (error ? reject(error) : resolve(zip));
      if (Buffer.isBuffer(source)) fromBuffer(source, options, opened);
      else fromRandomAccessReader(new RangeReader(source), source.size, options, opened);
    });
  } catch {
    throw new ArchiveRejected('The archive is not a readable zip file');
  }
}

/** An entry's inflated bytes as they come, refused past its limit or past the walk's total. */
function bounded(
  name: string,
  limit: number,
  totals: { bytes: number; max: number },
  refuse: (rejection: ArchiveRejected) => void,
): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      totals.bytes += chunk.length;
      // The declared size may lie: the inflated bytes are counted as they come.
      if (size > limit || totals.bytes > totals.max) {
        const rejection = new ArchiveRejected(
          size > limit
            ? `${name} is larger than ${limit} bytes`
            : `The archive's files are larger than ${totals.max} bytes together`,
        );
        refuse(rejection);
        return done(rejection);
      }
      done(null, chunk);
    },
  });
}

/**
 * Walks the archive's entries in order, one inflating stream at a time, every entry's name checked
 * first. `limitOf` answers the most an entry may inflate to, or null to skip it unread; `take`
 * consumes the entries it wants (their bytes bounded by that limit and, together, by
 * `maxTotalBytes`). Throws ArchiveRejected for anything unsafe; a failure of `take` that is not the
 * archive's (a store's fault) is thrown as it is, so the job retries. Answers the names taken.
 */
async function walkEntries(
  source: ArchiveSource,
  maxEntries: number,
  maxTotalBytes: number,
  limitOf: (name: string) => number | null,
  take: (name: string, body: Readable) => Promise<void>,
): Promise<Set<string>> {
  const zip = await openZip(source);
  if (zip.entryCount > maxEntries) {
    zip.close();
    throw new ArchiveRejected(`The archive has more than ${maxEntries} entries`);
  }
  const taken = new Set<string>();
  const totals = { bytes: 0, max: maxTotalBytes };
  const takeEntry = async (entry: Entry): Promise<void> => {
    const name = Buffer.isBuffer(entry.fileName)
      ? (entry.fileName as unknown as Buffer).toString('utf8')
      : entry.fileName;
    if (!isSafeEntryName(name))
      throw new ArchiveRejected(`Unsafe entry name: ${JSON.stringify(name.slice(0, 80))}`);
    const limit = limitOf(name);
    if (limit === null) return;
    if (taken.has(name)) throw new ArchiveRejected(`${name} appears twice`);
    if (entry.uncompressedSize > limit) throw new ArchiveRejected(`${name} is larger than ${limit} bytes`);
    taken.add(name);
    const inflating = await new Promise<Readable>((resolve, reject) =>
      zip.openReadStream(entry, (error, stream) =>
        error ? reject(new ArchiveRejected(`${name} cannot be read: ${error.message}`)) : resolve(stream),
      ),
    );
    let rejection: ArchiveRejected | null = null;
    const refuse = (found: ArchiveRejected) => (rejection ??= found);
    const body = inflating.pipe(bounded(name, limit, totals, refuse));
    inflating.on('error', (error: Error) => {
      refuse(new ArchiveRejected(`${name} cannot be read: ${error.message}`));
      body.destroy(error);
    });
    try {
      await take(name, body);
    } catch (error) {
      throw rejection ?? error;
    } finally {
      inflating.destroy();
    }
    if (rejection) throw rejection;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (error: Error) =>
        reject(
          error instanceof ArchiveRejected
            ? error
            : new ArchiveRejected(`The archive is damaged: ${error.message}`),
        ),
      );
      zip.on('end', () => resolve());
      zip.on('entry', (entry: Entry) =>
        takeEntry(entry).then(
          () => zip.readEntry(),
          (error: unknown) => reject(error),
        ),
      );
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return taken;
}

/** The entries `limitOf` names, each read whole (JSON files: bounded and small). */
async function readEntries(
  source: ArchiveSource,
  maxEntries: number,
  maxTotalBytes: number,
  limitOf: (name: string) => number | null,
): Promise<Map<string, Buffer>> {
  const texts = new Map<string, Buffer>();
  await walkEntries(source, maxEntries, maxTotalBytes, limitOf, async (name, body) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
    texts.set(name, Buffer.concat(chunks));
  });
  return texts;
}

/**
 * Reads the archive's JSON files of the space layout, entry by entry (lazily: one inflating stream
 * at a time), and validates them. Entries outside the layout (README, schemas/, media/) are
 * checked for their names and skipped unread. Throws ArchiveRejected for anything unsafe or invalid.
 */
export async function readSpaceArchive(
  source: ArchiveSource,
  limits: ArchiveReadLimits,
): Promise<ReadArchive> {
  const texts = await readEntries(source, limits.maxEntries, limits.maxTotalBytes, (name) =>
    name in SPACE_ARCHIVE_SCHEMAS ? limits.maxEntryBytes : null,
  );
  for (const file of REQUIRED_FILES) if (!texts.has(file)) throw new ArchiveRejected(`${file} is missing`);
  const files: ReadArchive = new Map();
  for (const [name, text] of texts) {
    let value: unknown;
    try {
      value = JSON.parse(text.toString('utf8'));
    } catch {
      throw new ArchiveRejected(`${name} is not JSON`);
    }
    const validate = validatorOf(name);
    if (!validate(value)) {
      const first = validate.errors?.[0];
      throw new ArchiveRejected(
        `${name} does not match its schema: ${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`,
      );
    }
    files.set(name, value);
  }
  return files;
}

/**
 * Hands each media file an import copies (docs/decisions/0231-a-space-import-copies-its-media.md)
 * to `take` as a stream, in the archive's order, each at most the limit `paths` gives it, all of
 * them at most `maxTotalBytes`; every other entry is skipped unread. A path `media.json` names that
 * the archive lacks is ArchiveRejected.
 */
export async function streamArchiveMedia(
  source: ArchiveSource,
  paths: ReadonlyMap<string, number>,
  limits: Pick<ArchiveReadLimits, 'maxEntries' | 'maxTotalBytes'>,
  take: (path: string, body: Readable) => Promise<void>,
): Promise<void> {
  const taken = await walkEntries(
    source,
    limits.maxEntries,
    limits.maxTotalBytes,
    (name) => (name.startsWith('media/') ? (paths.get(name) ?? null) : null),
    take,
  );
  for (const path of paths.keys()) if (!taken.has(path)) throw new ArchiveRejected(`${path} is missing`);
}
