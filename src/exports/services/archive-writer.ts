import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { ExportPage } from '../../common/export/export-page';
import type { ExportedMediaFile } from '../../media';
import { mediaPathOf, schemaDocument, schemaPathOf } from '../domain/archive-format';

/** A keyset source: the page after a cursor (null: the first). */
export type PageSource<T> = (after: string | null) => Promise<ExportPage<T>>;

/** What a finished build stored. */
export interface BuiltArchive {
  key: string;
  size: number;
}

/**
 * One zip archive being streamed into the store, shared by the personal and the space layouts
 * (docs/decisions/0211-export-archives-in-the-media-store.md,
 * docs/decisions/0215-space-exports-share-the-personal-machinery.md): entries are added in
 * archive order and their bytes made only when the zip reaches them; a failing entry fails the
 * archive's stream, hence the store's `put`, which then leaves nothing behind.
 */
export class ArchiveWriter {
  private readonly zip = new ZipFile();
  private readonly stored: Promise<BuiltArchive>;
  /** Rejects when the store's `put` fails; never resolves otherwise. */
  private readonly failed: Promise<never>;

  constructor(
    put: (body: Readable) => Promise<BuiltArchive>,
    private readonly mtime: Date,
  ) {
    const output = this.zip.outputStream as Readable;
    this.zip.on('error', (error: Error) => output.destroy(error));
    this.stored = put(output);
    this.failed = this.stored.then(
      () => new Promise<never>(() => undefined),
      (error: unknown) => Promise.reject(error),
    );
    this.failed.catch(() => undefined);
  }

  /** README, then a JSON Schema per JSON file of the layout. */
  header(readme: string, schemas: Record<string, object>): void {
    this.zip.addBuffer(Buffer.from(readme), 'README', { mtime: this.mtime });
    for (const file of Object.keys(schemas)) {
      this.zip.addBuffer(json(schemaDocument(file, schemas)), schemaPathOf(file), { mtime: this.mtime });
    }
  }

  /** A JSON document known now. */
  value(path: string, value: unknown): void {
    this.zip.addBuffer(json(value), path, { mtime: this.mtime });
  }

  /** A JSON document read when the zip reaches it. */
  lazyValue(path: string, read: () => Promise<unknown>): void {
    this.lazy(path, { mtime: this.mtime }, async () => Readable.from([json(await read())]));
  }

  /** A JSON array written page by page as the zip reads it: one page of rows in memory at a time. */
  array(path: string, ...sources: PageSource<unknown>[]): void {
    this.lazy(path, { mtime: this.mtime }, () => Promise.resolve(Readable.from(jsonArray(sources))));
  }

  /**
   * The files of `source` under media/, a page of records ahead of the zip at most: the next page
   * is read only once the zip has reached the last file of the one before. Awaits the listing's end.
   */
  async files(source: PageSource<ExportedMediaFile>): Promise<void> {
    let after: string | null = null;
    do {
      const page: ExportPage<ExportedMediaFile> = await Promise.race([source(after), this.failed]);
      let reached: Promise<void> = Promise.resolve();
      for (const file of page.items) {
        let signal: () => void = () => undefined;
        reached = new Promise((resolve) => (signal = resolve));
        // Stored media are compressed formats already: stored as they are.
        this.lazy(
          mediaPathOf(file.record.id, file.record.filename),
          { mtime: this.mtime, compress: false },
          () => file.open(),
          signal,
        );
      }
      after = page.after;
      if (after !== null) await Promise.race([reached, this.failed]);
    } while (after !== null);
  }

  /** No more entries: the archive once stored whole. */
  end(): Promise<BuiltArchive> {
    this.zip.end();
    return this.stored;
  }

  /** An entry whose bytes are made when the zip reaches it. */
  private lazy(
    path: string,
    options: { mtime: Date; compress?: boolean },
    open: () => Promise<Readable>,
    reached?: () => void,
  ): void {
    this.zip.addReadStreamLazy(path, options, (done) => {
      reached?.();
      open().then(
        (stream) => {
          // yazl pipes the entry without listening for its errors: a failed read must fail the
          // archive, not leave it waiting forever.
          stream.once('error', (error: Error) => this.zip.emit('error', error));
          done(null, stream);
        },
        (error: unknown) => done(error, undefined as unknown as NodeJS.ReadableStream),
      );
    });
  }
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** The bytes of a JSON array of every item of the `sources`, one after the other, a page per chunk. */
async function* jsonArray(sources: PageSource<unknown>[]): AsyncGenerator<Buffer> {
  let first = true;
  yield Buffer.from('[');
  for (const source of sources) {
    let after: string | null = null;
    do {
      const page: ExportPage<unknown> = await source(after);
      let chunk = '';
      for (const item of page.items) {
        chunk += `${first ? '' : ','}\n${JSON.stringify(item)}`;
        first = false;
      }
      if (chunk) yield Buffer.from(chunk);
      after = page.after;
    } while (after !== null);
  }
  yield Buffer.from(first ? ']\n' : '\n]\n');
}
