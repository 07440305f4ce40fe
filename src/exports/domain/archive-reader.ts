import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
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

/** Opens a zip held in memory; ArchiveRejected when it is not one. */
async function openZip(bytes: Buffer): Promise<ZipFile> {
  try {
    return await new Promise<ZipFile>((resolve, reject) =>
      fromBuffer(
        bytes,
        // Names are checked here (isSafeEntryName) so that the message says which one was refused.
        { lazyEntries: true, strictFileNames: false, validateEntrySizes: true, decodeStrings: false },
        (error, opened) => (error ? reject(error) : resolve(opened)),
      ),
    );
  } catch {
    throw new ArchiveRejected('The archive is not a readable zip file');
  }
}

/**
 * Reads the entries `limitOf` names (their inflated bytes at most the number it answers; null:
 * skipped unread), one inflating stream at a time, every entry's name checked first, at most
 * `maxTotalBytes` together. Throws ArchiveRejected for anything unsafe.
 */
async function readEntries(
  bytes: Buffer,
  maxEntries: number,
  maxTotalBytes: number,
  limitOf: (name: string) => number | null,
): Promise<Map<string, Buffer>> {
  const zip = await openZip(bytes);
  if (zip.entryCount > maxEntries) {
    zip.close();
    throw new ArchiveRejected(`The archive has more than ${maxEntries} entries`);
  }
  const texts = new Map<string, Buffer>();
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => reject(error);
      zip.on('error', (error: Error) =>
        fail(
          error instanceof ArchiveRejected
            ? error
            : new ArchiveRejected(`The archive is damaged: ${error.message}`),
        ),
      );
      zip.on('end', () => resolve());
      zip.on('entry', (entry: Entry) => {
        const name = Buffer.isBuffer(entry.fileName)
          ? (entry.fileName as unknown as Buffer).toString('utf8')
          : entry.fileName;
        if (!isSafeEntryName(name))
          return fail(new ArchiveRejected(`Unsafe entry name: ${JSON.stringify(name.slice(0, 80))}`));
        const limit = limitOf(name);
        if (limit === null) {
          zip.readEntry();
          return;
        }
        if (texts.has(name)) return fail(new ArchiveRejected(`${name} appears twice`));
        if (entry.uncompressedSize > limit) {
          return fail(new ArchiveRejected(`${name} is larger than ${limit} bytes`));
        }
        zip.openReadStream(entry, (error, stream) => {
          if (error) return fail(new ArchiveRejected(`${name} cannot be read: ${error.message}`));
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            total += chunk.length;
            // The declared size may lie: the inflated bytes are counted as they come.
            if (size > limit || total > maxTotalBytes) {
              stream.destroy();
              fail(
                new ArchiveRejected(
                  size > limit
                    ? `${name} is larger than ${limit} bytes`
                    : `The archive's files are larger than ${maxTotalBytes} bytes together`,
                ),
              );
              return;
            }
            chunks.push(chunk);
          });
          stream.on('error', (streamError: Error) =>
            fail(new ArchiveRejected(`${name} cannot be read: ${streamError.message}`)),
          );
          stream.on('end', () => {
            texts.set(name, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return texts;
}

/**
 * Reads the archive's JSON files of the space layout, entry by entry (lazily: one inflating stream
 * at a time), and validates them. Entries outside the layout (README, schemas/, media/) are
 * checked for their names and skipped unread. Throws ArchiveRejected for anything unsafe or invalid.
 */
export async function readSpaceArchive(bytes: Buffer, limits: ArchiveReadLimits): Promise<ReadArchive> {
  const texts = await readEntries(bytes, limits.maxEntries, limits.maxTotalBytes, (name) =>
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
 * The bytes of the media files an import copies (docs/decisions/0231-a-space-import-copies-its-media.md),
 * each at most the limit `paths` gives it, all of them at most `maxTotalBytes`; every other entry
 * is skipped unread. A path `media.json` names that the archive lacks is ArchiveRejected.
 */
export async function readArchiveMedia(
  bytes: Buffer,
  paths: ReadonlyMap<string, number>,
  limits: Pick<ArchiveReadLimits, 'maxEntries' | 'maxTotalBytes'>,
): Promise<Map<string, Buffer>> {
  const files = await readEntries(bytes, limits.maxEntries, limits.maxTotalBytes, (name) =>
    name.startsWith('media/') ? (paths.get(name) ?? null) : null,
  );
  for (const path of paths.keys()) if (!files.has(path)) throw new ArchiveRejected(`${path} is missing`);
  return files;
}
