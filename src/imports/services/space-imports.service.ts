import { HttpStatus, Injectable, Logger, PipeTransform } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import type { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { ApiError, invalidRequest, notFound } from '../../common/errors/api-error';
import { formatEntityId, newUuid, parseEntityId } from '../../common/ids/entity-id';
import { createValidationPipe } from '../../common/validation.pipe';
import { AppConfig } from '../../config/app-config';
import { ArchiveRejected, readSpaceArchive, streamArchiveMedia } from '../../exports';
import {
  ImportArchivesService,
  ImportArchiveTooLarge,
  MediaImportRefused,
  MediaImportsService,
  requestBody,
  type StagedSpaceFile,
  type StoredImportArchive,
} from '../../media';
import { JobAttempt } from '../../infrastructure/jobs/job-queue';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { PostsService } from '../../posts';
import { ProductsService, ReleasesService } from '../../store';
import { SpaceEventWriter } from '../../common/imports/space-event-writer';
import { SpacePagesService, SpacesService, SpaceSiteService, SpaceTopicsService } from '../../spaces';
import { SpaceImportRecord } from '../dto/space-import.dto';
import { SpaceImport } from '../entities/space-import.entity';
import {
  IMPORT_ANNOUNCE_JOB,
  IMPORT_RUN_JOB,
  ImportAnnounceJob,
  ImportRunJob,
} from '../events/imports.events';
import { ImportsRepository } from '../imports.repository';
import { presentSpaceImport } from './imports.presenter';
import { verifySpaceArchiveChains } from './space-import-chains';
import { planOf, SpaceImportPlan } from './space-import-plan';

/** An `attachment://` token of a body (the media module's attachmentTokensOf reads the same). */
const ATTACHMENT_TOKEN = /attachment:\/\/(media_[0-9a-f]{32})(?![0-9A-Za-z_])/g;

/** Entries an archive's central directory may list (media files included). */
const MAX_ENTRIES = 20_000;

/**
 * Space imports (issue 35 item 5; docs/decisions/0220, 0221, 0237): the archive is streamed into the
 * media store, the `imports.run` job reads and validates all of it by ranges, then creates the space
 * through the owning modules' services as its owner would, route by route. Audit lines: each
 * request, each import done or failed, with who, when and what.
 */
@Injectable()
export class SpaceImportsService {
  private readonly logger = new Logger('ImportsAudit');
  private readonly pipe: PipeTransform;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: ImportsRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly outbox: JobOutbox,
    private readonly spaces: SpacesService,
    private readonly site: SpaceSiteService,
    private readonly topics: SpaceTopicsService,
    private readonly pages: SpacePagesService,
    private readonly posts: PostsService,
    private readonly media: MediaImportsService,
    private readonly archives: ImportArchivesService,
    private readonly products: ProductsService,
    private readonly releases: ReleasesService,
    private readonly modules: ModuleRef,
  ) {
    this.pipe = createValidationPipe(config);
  }

  /** Receives an `application/zip` body (413 above IMPORT_MAX_ARCHIVE_BYTES) and queues its import. */
  async request(ownerDid: string, request: Request): Promise<SpaceImportRecord> {
    const id = newUuid();
    const archive = await this.storedBody(id, request);
    const at = this.clock.now();
    try {
      await this.dataSource.transaction(async (manager) => {
        await this.repository.insert(id, ownerDid, at, archive.key, manager);
        await this.outbox.record<ImportRunJob>(
          manager,
          IMPORT_RUN_JOB,
          { importId: id },
          { jobId: `imports.run.${id}` },
        );
      });
    } catch (error) {
      await this.archives.remove(archive.key);
      throw error;
    }
    this.logger.log(
      {
        audit: 'import.requested',
        import: formatEntityId('import', id),
        owner: ownerDid,
        at: at.toISOString(),
        bytes: archive.size,
      },
      'space import requested',
    );
    return presentSpaceImport({
      id,
      ownerDid,
      state: 'queued',
      archiveKey: null,
      spaceId: null,
      failureReason: null,
      createdAt: at,
      updatedAt: at,
      finishedAt: null,
    });
  }

  /** One of the caller's imports; another person's, or none, is the constant 404. */
  async show(ownerDid: string, wireId: string): Promise<SpaceImportRecord> {
    const id = parseEntityId('import', wireId);
    const row = id ? await this.repository.byId(id) : null;
    if (!row || row.ownerDid !== ownerDid) throw notFound();
    return presentSpaceImport(row);
  }

  /**
   * The `imports.run` job. The whole archive is read, validated and planned before the first
   * write: a refused archive fails the import at once (no retry) and stores nothing. A write that
   * fails removes the half-made space; the last attempt marks the import failed.
   */
  async run(importId: string, attempt: JobAttempt): Promise<void> {
    const row = await this.repository.start(importId, this.clock.now());
    if (!row) return;
    const owner: RequestPrincipal = { did: row.ownerDid, grant: row.ownerDid };
    // A previous attempt died mid-way: its space goes first.
    if (row.spaceId) await this.removeSpace(owner, row.spaceId);
    const archive = row.archiveKey ? await this.archives.open(row.archiveKey) : null;
    if (!archive) {
      // Its bytes are gone (an import queued before they moved to the store): it cannot go on.
      await this.fail(row, 'The import could not be completed');
      return;
    }
    let plan: SpaceImportPlan;
    let chains: number | null;
    let files: Map<string, StagedSpaceFile>;
    try {
      const read = await readSpaceArchive(archive, {
        maxEntries: MAX_ENTRIES,
        maxEntryBytes: this.config.IMPORT_MAX_FILE_BYTES,
        maxTotalBytes: 4 * this.config.IMPORT_MAX_FILE_BYTES,
      });
      chains = await verifySpaceArchiveChains(read);
      plan = await planOf(read, this.pipe);
      files = await this.stagedMedia(archive, plan);
    } catch (error) {
      if (!(error instanceof ArchiveRejected)) throw error;
      await this.fail(row, error.message);
      return;
    }
    const recorded = new Set<string>();
    let spaceId: string | null = null;
    try {
      spaceId = await this.write(row, owner, plan, files, recorded);
    } catch (error) {
      await this.media.discardStaged([...files.values()].filter((file) => !recorded.has(file.id)));
      if (spaceId === null) spaceId = (await this.repository.byId(row.id))?.spaceId ?? null;
      if (spaceId) await this.removeSpace(owner, spaceId);
      if (attempt.last) await this.fail(row, 'The import could not be completed', error);
      throw error;
    }
    const at = this.clock.now();
    // Done, and the source's chains to announce once that commits (docs/decisions/0236).
    await this.dataSource.transaction(async (manager) => {
      await this.repository.settle(row.id, at, { state: 'done', spaceId }, manager);
      await this.outbox.record<ImportAnnounceJob>(
        manager,
        IMPORT_ANNOUNCE_JOB,
        { importId: row.id },
        { jobId: `imports.announce.${row.id}` },
      );
    });
    this.logger.log(
      {
        audit: 'import.done',
        import: formatEntityId('import', row.id),
        owner: row.ownerDid,
        space: formatEntityId('space', spaceId),
        at: at.toISOString(),
        topics: plan.topics.length,
        pages: plan.pages.length,
        posts: plan.posts.length,
        media: plan.media.length,
        products: plan.products.length,
        releases: plan.releases.length,
        events: plan.events.length,
        // Content chains verified (docs/decisions/0235); null: the archive carried none.
        chains,
      },
      'space import done',
    );
  }

  /**
   * The plan's files streamed from the archive into the store, each checked as an upload's are
   * (its kind's limit, its sniffed type, an image decodable, an audio or video ffprobe reads and
   * probed once), before the first row is written; a refusal names the file's record and removes
   * every file staged so far (docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md).
   */
  private async stagedMedia(
    archive: StoredImportArchive,
    plan: SpaceImportPlan,
  ): Promise<Map<string, StagedSpaceFile>> {
    const planned = new Map(plan.media.map((file) => [file.path, file]));
    const limits = new Map(plan.media.map((file) => [file.path, this.media.limitOf(file.mint.contentType)!]));
    const staged = new Map<string, StagedSpaceFile>();
    try {
      await streamArchiveMedia(
        archive,
        limits,
        { maxEntries: MAX_ENTRIES, maxTotalBytes: 2 * this.config.IMPORT_MAX_ARCHIVE_BYTES },
        async (path, body) => {
          const file = planned.get(path)!;
          const where = `media.json/${file.index}`;
          let stored: StagedSpaceFile;
          try {
            stored = await this.media.stageSpaceFile({
              body,
              filename: file.mint.filename,
              contentType: file.mint.contentType,
              alt: file.mint.alt ?? null,
            });
          } catch (error) {
            if (error instanceof MediaImportRefused) throw new ArchiveRejected(`${where}: ${error.message}`);
            throw error;
          }
          staged.set(path, stored);
          if (file.mint.contentLength !== undefined && stored.length !== file.mint.contentLength) {
            throw new ArchiveRejected(
              `${where}: ${file.path} has ${stored.length} bytes, not ${file.mint.contentLength}`,
            );
          }
        },
      );
    } catch (error) {
      await this.media.discardStaged([...staged.values()]);
      throw error;
    }
    return staged;
  }

  /** The plan's requests, in order, each through the route's own service as the owner. */
  private async write(
    row: SpaceImport,
    owner: RequestPrincipal,
    plan: SpaceImportPlan,
    files: Map<string, StagedSpaceFile>,
    recorded: Set<string>,
  ): Promise<string> {
    const created = await this.spaces.create(owner, plan.create);
    const spaceId = parseEntityId('space', created.id)!;
    await this.repository.recordSpace(row.id, spaceId);
    const space = created.id;
    // The files first, as uploads of the owner to the new space: the archive's ids map to new ones.
    const ids = new Map<string, string>();
    for (const file of plan.media) {
      const staged = files.get(file.path)!;
      await this.media.recordStaged(spaceId, owner.did, staged);
      recorded.add(staged.id);
      ids.set(file.archiveId, formatEntityId('media', staged.id));
    }
    const mapped = (id: string | null | undefined) => (id ? ids.get(id)! : id);
    const rewritten = (body: string) =>
      body.replace(ATTACHMENT_TOKEN, (token, id: string) =>
        ids.has(id) ? `attachment://${ids.get(id)}` : token,
      );
    if (plan.images) {
      const { avatarId, bannerId, backgroundId } = plan.images;
      await this.spaces.update(owner, space, {
        ...(avatarId ? { avatarId: mapped(avatarId) } : {}),
        ...(bannerId ? { bannerId: mapped(bannerId) } : {}),
        ...(backgroundId ? { backgroundId: mapped(backgroundId) } : {}),
      });
    }
    if (plan.site) await this.site.updateSite(owner, space, plan.site);
    const topicIds = new Map<string, string>();
    for (const topic of plan.topics) {
      topicIds.set(topic.archiveId, (await this.topics.create(owner, space, topic.request)).id);
    }
    for (const page of plan.pages) {
      await this.pages.create(
        owner,
        space,
        Object.assign(page, {
          body: rewritten(page.body),
          ...(page.coverId ? { coverId: mapped(page.coverId) } : {}),
        }),
      );
    }
    for (const post of plan.posts) {
      await this.posts.create(
        owner,
        space,
        Object.assign(post, {
          topic: topicIds.get(post.topic)!,
          body: rewritten(post.body),
          ...(post.attachments ? { attachments: post.attachments.map((id) => ids.get(id)!) } : {}),
        }),
      );
    }
    // The store, then the events that sell its tickets (docs/decisions/0232).
    const productIds = new Map<string, string>();
    for (const product of plan.products) {
      const request = Object.assign(product.request, {
        ...(product.request.coverId ? { coverId: mapped(product.request.coverId) } : {}),
      });
      productIds.set(product.archiveId, (await this.products.create(owner, space, request)).id);
    }
    for (const release of plan.releases) {
      await this.releases.create(
        owner,
        space,
        Object.assign(release, {
          ...(release.coverId ? { coverId: mapped(release.coverId) } : {}),
          productIds: (release.productIds ?? []).map((id) => productIds.get(id)!),
        }),
      );
    }
    for (const event of plan.events) {
      await this.modules.get(SpaceEventWriter, { strict: false }).create(
        owner,
        space,
        Object.assign(event, {
          ...(event.coverId ? { coverId: mapped(event.coverId) } : {}),
          ...(event.ticketProductIds
            ? { ticketProductIds: event.ticketProductIds.map((id) => productIds.get(id)!) }
            : {}),
        }),
      );
    }
    // Last: the space is seen by others only once it is whole.
    if (plan.publicConfig) await this.spaces.setPublicConfig(owner, space, plan.publicConfig);
    return spaceId;
  }

  private async removeSpace(owner: RequestPrincipal, spaceId: string): Promise<void> {
    try {
      await this.spaces.remove(owner, formatEntityId('space', spaceId));
    } catch (error) {
      // Already removed (an earlier attempt's cleanup): nothing left of it to remove.
      if (!(error instanceof ApiError && error.getStatus() === 404)) throw error;
    }
  }

  private async fail(row: SpaceImport, reason: string, cause?: unknown): Promise<void> {
    await this.repository.settle(row.id, this.clock.now(), { state: 'failed', reason });
    this.logger.warn(
      {
        audit: 'import.failed',
        import: formatEntityId('import', row.id),
        owner: row.ownerDid,
        reason,
        ...(cause ? { cause: String(cause) } : {}),
      },
      'space import failed',
    );
    if (row.archiveKey) await this.archives.remove(row.archiveKey);
  }

  /**
   * The request's body streamed into the store, refused (413) past the cap whether announced or
   * not; nothing is stored for a refused or empty one.
   */
  private async storedBody(importId: string, request: Request): Promise<{ key: string; size: number }> {
    if (!request.is('application/zip')) throw invalidRequest('Send the archive as application/zip');
    const cap = this.config.IMPORT_MAX_ARCHIVE_BYTES;
    const tooLarge = () =>
      new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, `The archive is larger than ${cap} bytes`);
    if (Number(request.headers['content-length'] ?? 0) > cap) throw tooLarge();
    const body = requestBody(request);
    let stored: { key: string; size: number };
    try {
      stored = await this.archives.put(importId, body, cap);
    } catch (error) {
      request.unpipe(body);
      if (error instanceof ImportArchiveTooLarge) throw tooLarge();
      throw error;
    }
    if (stored.size === 0) {
      await this.archives.remove(stored.key);
      throw invalidRequest('The archive is empty');
    }
    return stored;
  }
}
