import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CommentExportService } from '../../comments';
import { EventExportService } from '../../events';
import { formatEntityId } from '../../common/ids/entity-id';
import { readOnlySnapshot } from '../../infrastructure/database/read-only-snapshot';
import type { ExportPage } from '../../common/export/export-page';
import { ExportedMediaFile, MediaExportService } from '../../media';
import { NotificationExportService } from '../../notifications';
import { PostExportService } from '../../posts';
import { ChainExportService, ExportedContentChain, ExportedIdentityChain } from '../../protocol';
import { SpaceExportService, SpaceMembershipReadsService } from '../../spaces';
import { StoreExportService } from '../../store';
import { UsersService } from '../../users';
import {
  ARCHIVE_FORMAT_VERSION,
  ARCHIVE_README,
  ARCHIVE_SCHEMAS,
  mediaPathOf,
  SPACE_ARCHIVE_README,
  SPACE_ARCHIVE_SCHEMAS,
} from '../domain/archive-format';
import type { Export } from '../entities/export.entity';
import { ArchiveWriter, BuiltArchive, type PageSource } from './archive-writer';

export type { BuiltArchive } from './archive-writer';

/**
 * Builds one person's archive (docs/decisions/0210-personal-export-archive-layout.md), or one
 * space's (docs/decisions/0216-space-export-archive-layout.md), as a zip
 * streamed straight into the media store (docs/decisions/0211-export-archives-in-the-media-store.md):
 * every JSON array is written a keyset page at a time as the zip reads it, every file is piped from
 * the store when the zip reaches it, and the media listing is read a page ahead at most, so memory
 * holds a page, not the archive. Data comes only through the owners' exported services, every
 * read of one build in one read-only REPEATABLE READ transaction, handed to them as their `runner`:
 * the archive is one snapshot of the database
 * (docs/decisions/0238-an-export-reads-one-snapshot.md).
 */
@Injectable()
export class ExportArchiveService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly posts: PostExportService,
    private readonly comments: CommentExportService,
    private readonly memberships: SpaceMembershipReadsService,
    private readonly notifications: NotificationExportService,
    private readonly media: MediaExportService,
    private readonly chains: ChainExportService,
    private readonly spaces: SpaceExportService,
    private readonly events: EventExportService,
    private readonly store: StoreExportService,
  ) {}

  /**
   * The archive of an export: a space's when it names one, else its owner's personal one, read from
   * one snapshot (docs/decisions/0238-an-export-reads-one-snapshot.md), whose transaction stays
   * open while the zip streams into the store: a build holds one pooled connection throughout.
   */
  build(row: Pick<Export, 'id' | 'ownerDid' | 'spaceId' | 'createdAt'>): Promise<BuiltArchive> {
    return readOnlySnapshot(this.dataSource, (snapshot) =>
      row.spaceId === null
        ? this.buildPersonal(row.id, row.ownerDid, row.createdAt, snapshot)
        : this.buildSpace(row.id, row.spaceId, row.ownerDid, row.createdAt, snapshot),
    );
  }

  private writer(exportId: string, at: Date): ArchiveWriter {
    return new ArchiveWriter((body) => this.media.putArchive(exportId, body), at);
  }

  private async buildPersonal(
    exportId: string,
    did: string,
    at: Date,
    snapshot: EntityManager,
  ): Promise<BuiltArchive> {
    const archive = this.writer(exportId, at);
    archive.header(ARCHIVE_README, ARCHIVE_SCHEMAS);
    archive.value('manifest.json', {
      format: 'plat-personal-export',
      version: ARCHIVE_FORMAT_VERSION,
      did,
      exportId: formatEntityId('export', exportId),
      createdAt: at.toISOString(),
    });
    archive.lazyValue('profile.json', () => this.users.ownProfileOf(did, snapshot));
    archive.array('posts.json', (after) => this.posts.pageOf(did, after, snapshot));
    archive.array('comments.json', (after) => this.comments.pageOf(did, after, snapshot));
    archive.array('memberships.json', (after) => this.memberships.exportPageOf(did, after, snapshot));
    archive.array('notifications.json', (after) => this.notifications.pageOf(did, after, snapshot));
    archive.array('media.json', async (after) => withPaths(await this.media.pageOf(did, after, snapshot)));
    this.writeChains(
      archive,
      snapshot,
      did,
      async (after) => chainsOf(await this.posts.pageOf(did, after, snapshot)),
      async () => onePage(await this.users.profileContentIdOf(did, snapshot)),
    );
    // The files last.
    await archive.files((after) => this.media.pageOf(did, after, snapshot));
    return archive.end();
  }

  /**
   * A space's archive (docs/decisions/0216-space-export-archive-layout.md), asked for by its owner
   * (`ownerDid`): the space's settings, topics, pages, posts, comments, members, events, products,
   * releases and files, each
   * from its owning module's export pages.
   */
  private async buildSpace(
    exportId: string,
    spaceId: string,
    ownerDid: string,
    at: Date,
    snapshot: EntityManager,
  ): Promise<BuiltArchive> {
    const space = await this.spaces.spaceOf(spaceId, snapshot);
    // A space deleted since the request: nothing to export (the job fails, the export with it).
    if (!space) throw new Error('The space is gone');
    const archive = this.writer(exportId, at);
    archive.header(SPACE_ARCHIVE_README, SPACE_ARCHIVE_SCHEMAS);
    archive.value('manifest.json', {
      format: 'plat-space-export',
      version: ARCHIVE_FORMAT_VERSION,
      space: { id: space.id, did: space.did },
      requestedBy: ownerDid,
      exportId: formatEntityId('export', exportId),
      createdAt: at.toISOString(),
    });
    archive.value('space.json', space);
    archive.array('topics.json', (after) => this.spaces.topicsPage(spaceId, after, snapshot));
    archive.array('pages.json', (after) => this.spaces.pagesPage(spaceId, after, snapshot));
    archive.array('posts.json', (after) => this.posts.pageOfSpace(spaceId, after, snapshot));
    archive.array('comments.json', (after) => this.comments.pageOfSpace(spaceId, ownerDid, after, snapshot));
    archive.array('members.json', (after) => this.spaces.membersPage(spaceId, after, snapshot));
    archive.array('events.json', (after) => this.events.pageOfSpace(spaceId, after, snapshot));
    archive.array('products.json', (after) => this.store.productsPage(spaceId, after, snapshot));
    archive.array('releases.json', (after) => this.store.releasesPage(spaceId, after, snapshot));
    archive.array('media.json', async (after) =>
      withPaths(await this.media.pageOfSpace(spaceId, after, snapshot)),
    );
    // The space's chains (docs/decisions/0235): its identity, its public posts' and its profile's.
    this.writeChains(
      archive,
      snapshot,
      space.did,
      async (after) => chainsOf(await this.posts.pageOfSpace(spaceId, after, snapshot)),
      async () => onePage(await this.spaces.profileContentIdOf(spaceId, snapshot)),
    );
    // The files last (docs/decisions/0217-space-export-media.md).
    await archive.files((after) => this.media.pageOfSpace(spaceId, after, snapshot));
    return archive.end();
  }

  /**
   * `chains/` of an identity `did` (docs/decisions/0210-personal-export-archive-layout.md, 0235):
   * its identity chain; the content chains it created, then those of `contentIds` (which the
   * service's origin identity signs for it), a page of ids at a time; then the identity chains of
   * every other signer, so that all of them verify offline.
   */
  private writeChains(
    archive: ArchiveWriter,
    snapshot: EntityManager,
    did: string,
    ...contentIds: PageSource<string>[]
  ): void {
    archive.lazyValue('chains/identity.json', () => this.chains.identityChainOf(did, snapshot));
    const signers = new Set<string>();
    const noting = <T extends ExportedContentChain>(chains: T[]): T[] => {
      for (const chain of chains) for (const op of chain.operations) signers.add(signerOf(op.jwsToken));
      return chains;
    };
    archive.array(
      'chains/content.json',
      async (after) => {
        const page = await this.chains.contentChainsOf(did, after, snapshot);
        return { after: page.after, items: noting(page.items) };
      },
      ...contentIds.map((source): PageSource<unknown> => async (after) => {
        const page = await source(after);
        return {
          after: page.after,
          items: noting(await this.chains.contentChainsByIds(did, page.items, snapshot)),
        };
      }),
    );
    // Read once content.json, written before it, has named them all.
    archive.array('chains/signers.json', async () => {
      signers.delete(did);
      const chains: ExportedIdentityChain[] = [];
      for (const signer of [...signers].sort())
        chains.push(await this.chains.identityChainOf(signer, snapshot));
      return { after: null, items: chains };
    });
  }
}

/** A page of files as `media.json` lists them: each record with the path of its bytes. */
/** The content ids of a page of posts, those with a chain. */
function chainsOf(page: ExportPage<{ contentId: string | null }>): ExportPage<string> {
  return { after: page.after, items: page.items.flatMap((post) => (post.contentId ? [post.contentId] : [])) };
}

/** One id, if any, as the only page of a source. */
function onePage(id: string | null): ExportPage<string> {
  return { after: null, items: id ? [id] : [] };
}

function withPaths(page: ExportPage<ExportedMediaFile>): ExportPage<unknown> {
  return {
    after: page.after,
    items: page.items.map(({ record }) => ({ ...record, path: mediaPathOf(record.id, record.filename) })),
  };
}

/** The DID that signed a compact JWS: its protected header's `kid` is a DID URL (`did#key`). */
function signerOf(jws: string): string {
  const header = JSON.parse(Buffer.from(jws.split('.')[0], 'base64url').toString()) as { kid?: unknown };
  return typeof header.kid === 'string' ? header.kid.split('#')[0] : '';
}
