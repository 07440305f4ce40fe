import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { CommentExportService } from '../../comments';
import type { ExportPage } from '../../common/export/export-page';
import { formatEntityId } from '../../common/ids/entity-id';
import { ExportedMediaFile, MediaExportService } from '../../media';
import { NotificationExportService } from '../../notifications';
import { PostExportService } from '../../posts';
import { ChainExportService, ExportedContentChain, ExportedIdentityChain } from '../../protocol';
import { SpaceMembershipReadsService } from '../../spaces';
import { UsersService } from '../../users';
import {
  ARCHIVE_FORMAT_VERSION,
  ARCHIVE_README,
  ARCHIVE_SCHEMAS,
  mediaPathOf,
  schemaDocument,
  schemaPathOf,
} from '../domain/archive-format';

/** A keyset source: the page after a cursor (null: the first). */
type PageSource<T> = (after: string | null) => Promise<ExportPage<T>>;

/** What a finished build stored. */
export interface BuiltArchive {
  key: string;
  size: number;
}

/**
 * Builds one person's archive (docs/decisions/0210-personal-export-archive-layout.md) as a zip
 * streamed straight into the media store (docs/decisions/0211-export-archives-in-the-media-store.md):
 * every JSON array is written a keyset page at a time as the zip reads it, every file is piped from
 * the store when the zip reaches it, and the media listing is read a page ahead at most, so memory
 * holds a page, not the archive. Data comes only through the owners' exported services.
 */
@Injectable()
export class ExportArchiveService {
  constructor(
    private readonly users: UsersService,
    private readonly posts: PostExportService,
    private readonly comments: CommentExportService,
    private readonly memberships: SpaceMembershipReadsService,
    private readonly notifications: NotificationExportService,
    private readonly media: MediaExportService,
    private readonly chains: ChainExportService,
  ) {}

  async build(exportId: string, did: string, at: Date): Promise<BuiltArchive> {
    const zip = new ZipFile();
    const output = zip.outputStream as Readable;
    // A failing entry (a store read, a statement) fails the archive's stream, hence the `put`,
    // which then leaves nothing behind.
    zip.on('error', (error: Error) => output.destroy(error));
    const stored = this.media.putArchive(exportId, output);
    const failed = stored.then(
      () => new Promise<never>(() => undefined),
      (error: unknown) => Promise.reject(error),
    );
    failed.catch(() => undefined);

    const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
    const mtime = at;
    zip.addBuffer(Buffer.from(ARCHIVE_README), 'README', { mtime });
    for (const file of Object.keys(ARCHIVE_SCHEMAS)) {
      zip.addBuffer(json(schemaDocument(file)), schemaPathOf(file), { mtime });
    }
    zip.addBuffer(
      json({
        format: 'plat-personal-export',
        version: ARCHIVE_FORMAT_VERSION,
        did,
        exportId: formatEntityId('export', exportId),
        createdAt: at.toISOString(),
      }),
      'manifest.json',
      { mtime },
    );
    this.lazy(zip, 'profile.json', { mtime }, async () =>
      Readable.from([json(await this.users.ownProfileOf(did))]),
    );
    this.lazyArray(zip, 'posts.json', mtime, (after) => this.posts.pageOf(did, after));
    this.lazyArray(zip, 'comments.json', mtime, (after) => this.comments.pageOf(did, after));
    this.lazyArray(zip, 'memberships.json', mtime, (after) => this.memberships.exportPageOf(did, after));
    this.lazyArray(zip, 'notifications.json', mtime, (after) => this.notifications.pageOf(did, after));
    this.lazyArray(zip, 'media.json', mtime, async (after) => {
      const page = await this.media.pageOf(did, after);
      return {
        after: page.after,
        items: page.items.map(({ record }) => ({ ...record, path: mediaPathOf(record.id, record.filename) })),
      };
    });
    this.lazy(zip, 'chains/identity.json', { mtime }, async () =>
      Readable.from([json(await this.chains.identityChainOf(did))]),
    );
    // Content chains: those the person created and signed, then those the service's origin
    // identity signs for them (their public posts, a page of posts at a time, and their profile).
    const signers = new Set<string>();
    const noting = <T extends ExportedContentChain>(chains: T[]): T[] => {
      for (const chain of chains) for (const op of chain.operations) signers.add(signerOf(op.jwsToken));
      return chains;
    };
    this.lazyArray(
      zip,
      'chains/content.json',
      mtime,
      async (after) => {
        const page = await this.chains.contentChainsOf(did, after);
        return { after: page.after, items: noting(page.items) };
      },
      async (after) => {
        const page = await this.posts.pageOf(did, after);
        const ids = page.items.flatMap((post) => (post.contentId ? [post.contentId] : []));
        return { after: page.after, items: noting(await this.chains.contentChainsByIds(did, ids)) };
      },
      async () => {
        const profile = await this.users.profileContentIdOf(did);
        return {
          after: null,
          items: noting(await this.chains.contentChainsByIds(did, profile ? [profile] : [])),
        };
      },
    );
    // The identity chains of everyone else who signed them (the origin), so that they verify
    // offline; read once content.json, written before it, has named them all.
    this.lazyArray(zip, 'chains/signers.json', mtime, async () => {
      signers.delete(did);
      const chains: ExportedIdentityChain[] = [];
      for (const signer of [...signers].sort()) chains.push(await this.chains.identityChainOf(signer));
      return { after: null, items: chains };
    });

    // The files last, a page of records ahead of the zip at most: the next page is read only once
    // the zip has reached the last file of the one before.
    let after: string | null = null;
    do {
      const page: ExportPage<ExportedMediaFile> = await Promise.race([this.media.pageOf(did, after), failed]);
      let reached: Promise<void> = Promise.resolve();
      for (const file of page.items) {
        let signal: () => void = () => undefined;
        reached = new Promise((resolve) => (signal = resolve));
        // Stored media are compressed formats already: stored as they are.
        this.lazy(
          zip,
          mediaPathOf(file.record.id, file.record.filename),
          { mtime, compress: false },
          () => file.open(),
          signal,
        );
      }
      after = page.after;
      if (after !== null) await Promise.race([reached, failed]);
    } while (after !== null);
    zip.end();
    return stored;
  }

  /** An entry whose bytes are made when the zip reaches it. */
  private lazy(
    zip: ZipFile,
    path: string,
    options: { mtime: Date; compress?: boolean },
    open: () => Promise<Readable>,
    reached?: () => void,
  ): void {
    zip.addReadStreamLazy(path, options, (done) => {
      reached?.();
      open().then(
        (stream) => {
          // yazl pipes the entry without listening for its errors: a failed read must fail the
          // archive, not leave it waiting forever.
          stream.once('error', (error: Error) => zip.emit('error', error));
          done(null, stream);
        },
        (error: unknown) => done(error, undefined as unknown as NodeJS.ReadableStream),
      );
    });
  }

  /** A JSON array written page by page as the zip reads it: one page of rows in memory at a time. */
  private lazyArray(zip: ZipFile, path: string, mtime: Date, ...sources: PageSource<unknown>[]): void {
    this.lazy(zip, path, { mtime }, () => Promise.resolve(Readable.from(jsonArray(sources))));
  }
}

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

/** The DID that signed a compact JWS: its protected header's `kid` is a DID URL (`did#key`). */
function signerOf(jws: string): string {
  const header = JSON.parse(Buffer.from(jws.split('.')[0], 'base64url').toString()) as { kid?: unknown };
  return typeof header.kid === 'string' ? header.kid.split('#')[0] : '';
}
