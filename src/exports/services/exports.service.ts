import { Injectable, Logger, StreamableFile } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { conflict, forbidden, notFound } from '../../common/errors/api-error';
import { formatEntityId, newUuid, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, KeysetSeek, openKeysetPage } from '../../common/pagination/keyset';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { AppConfig } from '../../config/app-config';
import { JobAttempt } from '../../infrastructure/jobs/job-queue';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { MediaExportService, StoredObjectMissing } from '../../media';
import { isUniqueViolation, SpaceAccessService } from '../../spaces';
import { SignedUrlQuery } from '../../common/signing/signed-url-query.dto';
import { ExportListing, ExportRecord } from '../dto/export.dto';
import { Export } from '../entities/export.entity';
import { EXPORT_BUILD_JOB, ExportBuildJob } from '../events/exports.events';
import { ExportsRepository } from '../exports.repository';
import { ExportArchiveService } from './export-archive.service';
import { ExportUrlSignerService } from './export-url-signer.service';
import { presentExport } from './exports.presenter';

/** Newest first: ids are UUIDv7. */
const ORDER: KeysetColumn[] = [{ expression: 'id', direction: 'DESC' }];
const DAY_MS = 86_400_000;
/** Expired archives one sweep deletes at most. */
const SWEEP_BATCH = 100;

/**
 * Personal exports (issue 35 item 3): one at a time per person, built by a durable job
 * (docs/decisions/0212-one-export-at-a-time-built-by-a-durable-job.md), downloaded by signed URL
 * until they expire (docs/decisions/0213-export-expiry-and-signed-download.md). Audit lines: each
 * request, each ready archive and each download, with who (the owner's DID), when and what.
 */
@Injectable()
export class ExportsService {
  private readonly logger = new Logger('ExportsAudit');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repository: ExportsRepository,
    private readonly cursors: CursorCodec,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly outbox: JobOutbox,
    private readonly archives: ExportArchiveService,
    private readonly media: MediaExportService,
    private readonly signer: ExportUrlSignerService,
    private readonly access: SpaceAccessService,
  ) {}

  /** Queues an export of the caller's data; 409 while one of theirs is queued or running. */
  request(ownerDid: string): Promise<ExportRecord> {
    return this.queue(ownerDid, null);
  }

  /**
   * Queues an export of a space by its owner (issue 35 item 4): a non-owner member 403, a stranger
   * to a space without a public profile the constant 404 (design.md §9, as the administration
   * routes); 409 while one of the space's exports is queued or running.
   */
  async requestOfSpace(ownerDid: string, pathId: string): Promise<ExportRecord> {
    return this.queue(ownerDid, await this.ownedSpaceId(ownerDid, pathId));
  }

  private async queue(ownerDid: string, spaceId: string | null): Promise<ExportRecord> {
    const id = newUuid();
    const at = this.clock.now();
    try {
      await this.dataSource.transaction(async (manager) => {
        if (spaceId === null) await this.repository.insert(id, ownerDid, at, manager);
        else await this.repository.insertOfSpace(id, ownerDid, spaceId, at, manager);
        await this.outbox.record<ExportBuildJob>(
          manager,
          EXPORT_BUILD_JOB,
          { exportId: id },
          { jobId: `exports.build.${id}` },
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('An export is already in progress');
      throw error;
    }
    this.logger.log(
      {
        audit: 'export.requested',
        export: formatEntityId('export', id),
        owner: ownerDid,
        ...(spaceId ? { space: formatEntityId('space', spaceId) } : {}),
        at: at.toISOString(),
      },
      spaceId ? 'space export requested' : 'personal export requested',
    );
    return presentExport({
      id,
      ownerDid,
      spaceId,
      state: 'queued',
      createdAt: at,
      updatedAt: at,
      finishedAt: null,
      expiresAt: null,
      archiveKey: null,
      sizeBytes: null,
      failureReason: null,
    });
  }

  /** One of the caller's exports; another person's, or none, is the constant 404. */
  async show(ownerDid: string, wireId: string): Promise<ExportRecord> {
    const row = await this.own(ownerDid, wireId);
    return presentExport(row, row.state === 'ready' ? this.urlOf(row) : undefined);
  }

  /** One of the space's exports, for its owner; another space's, or none, is the constant 404. */
  async showOfSpace(ownerDid: string, pathId: string, wireId: string): Promise<ExportRecord> {
    const spaceId = await this.ownedSpaceId(ownerDid, pathId);
    const id = parseEntityId('export', wireId);
    const row = id ? await this.repository.byId(id) : null;
    if (!row || row.spaceId !== spaceId) throw notFound();
    return presentExport(row, row.state === 'ready' ? this.urlOf(row) : undefined);
  }

  /** A page of the space's exports, newest first, for its owner. */
  async listOfSpace(ownerDid: string, pathId: string, query: PaginationQueryDto): Promise<ExportListing> {
    const spaceId = await this.ownedSpaceId(ownerDid, pathId);
    return this.listing(query, (seek) => this.repository.pageOfSpace(spaceId, seek));
  }

  /** A page of the caller's exports, newest first. */
  async list(ownerDid: string, query: PaginationQueryDto): Promise<ExportListing> {
    return this.listing(query, (seek) => this.repository.pageOfOwner(ownerDid, seek));
  }

  private async listing(
    query: PaginationQueryDto,
    rows: (seek: KeysetSeek) => Promise<Export[]>,
  ): Promise<ExportListing> {
    const keyset = {
      listing: 'exports',
      columns: ORDER,
      keyOf: (row: Export) => [row.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await rows(seek), keyset);
    return {
      items: page.rows.map((row) => presentExport(row, row.state === 'ready' ? this.urlOf(row) : undefined)),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** The archive by its signed URL: 403 for a bad or expired signature, 404 once it is gone. */
  async download(wireId: string, query: SignedUrlQuery, response: Response): Promise<StreamableFile> {
    const id = parseEntityId('export', wireId);
    if (!id) throw notFound();
    this.signer.verify(formatEntityId('export', id), query.exp, query.sig);
    const row = await this.repository.byId(id);
    if (!row || row.state !== 'ready' || row.archiveKey === null) throw notFound();
    let stream;
    try {
      stream = await this.media.openArchive(row.archiveKey);
    } catch (error) {
      if (error instanceof StoredObjectMissing) throw notFound();
      throw error;
    }
    this.logger.log(
      {
        audit: 'export.downloaded',
        export: wireId,
        owner: row.ownerDid,
        ...spaceOf(row),
        at: this.clock.now().toISOString(),
        bytes: row.sizeBytes,
      },
      row.spaceId ? 'space export downloaded' : 'personal export downloaded',
    );
    response.setHeader('Content-Type', 'application/zip');
    response.setHeader('Content-Disposition', `attachment; filename="plat-export-${wireId}.zip"`);
    if (row.sizeBytes !== null) response.setHeader('Content-Length', String(row.sizeBytes));
    return new StreamableFile(stream);
  }

  /**
   * The `exports.build` job: builds and stores the archive, then marks the export ready; an
   * export already settled is left alone (idempotent). A failed attempt leaves nothing stored and
   * the export running for the retry; the last one marks it failed.
   */
  async build(exportId: string, run: JobAttempt): Promise<void> {
    const row = await this.repository.start(exportId, this.clock.now());
    if (!row) return;
    let built: { key: string; size: number };
    try {
      built = await this.archives.build(row);
    } catch (error) {
      if (run.last) {
        await this.repository.fail(row.id, this.clock.now(), (error as Error).message ?? String(error));
        this.logger.warn(
          {
            audit: 'export.failed',
            export: formatEntityId('export', row.id),
            owner: row.ownerDid,
            ...spaceOf(row),
          },
          row.spaceId ? 'space export failed' : 'personal export failed',
        );
      }
      throw error;
    }
    const at = this.clock.now();
    const expiresAt = new Date(at.getTime() + this.config.EXPORT_RETENTION_DAYS * DAY_MS);
    if (!(await this.repository.ready(row.id, at, built.key, built.size, expiresAt))) {
      // Settled meanwhile (a concurrent run finished first): this copy is nobody's.
      await this.media.removeArchive(built.key);
      return;
    }
    this.logger.log(
      {
        audit: 'export.ready',
        export: formatEntityId('export', row.id),
        owner: row.ownerDid,
        ...spaceOf(row),
        at: at.toISOString(),
        bytes: built.size,
        expiresAt: expiresAt.toISOString(),
      },
      row.spaceId ? 'space export ready' : 'personal export ready',
    );
  }

  /** The `exports.sweep` job: deletes the archives whose time is over; how many it expired. */
  async sweep(): Promise<number> {
    const at = this.clock.now();
    let expired = 0;
    await this.dataSource.transaction(async (manager) => {
      for (const row of await this.repository.expiring(at, SWEEP_BATCH, manager)) {
        // The bytes first: a failure leaves the row ready, to be swept again.
        if (row.archiveKey) await this.media.removeArchive(row.archiveKey);
        await this.repository.expire(row.id, at, manager);
        expired += 1;
      }
    });
    return expired;
  }

  private async own(ownerDid: string, wireId: string): Promise<Export> {
    const id = parseEntityId('export', wireId);
    const row = id ? await this.repository.byId(id) : null;
    // A space's export is read on the space's routes only.
    if (!row || row.ownerDid !== ownerDid || row.spaceId !== null) throw notFound();
    return row;
  }

  /** The space's uuid when the caller owns it: 403 for another member, the 404 for a stranger. */
  private async ownedSpaceId(did: string, pathId: string): Promise<string> {
    const context = await this.access.resolveAdmin(pathId, did);
    if (context.membership?.role !== 'owner') throw forbidden('Owner only');
    return context.space.id;
  }

  /** A signed URL valid EXPORT_URL_TTL_SECONDS, never past the archive's expiry. */
  private urlOf(row: Export): string {
    const wireId = formatEntityId('export', row.id);
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const until = row.expiresAt ? Math.floor(row.expiresAt.getTime() / 1000) : now;
    const exp = Math.max(now + 1, Math.min(now + this.config.EXPORT_URL_TTL_SECONDS, until));
    return `${this.config.publicBaseUrl}/v1/exports/${wireId}/archive?${this.signer.sign(wireId, exp)}`;
  }
}

/** The audit lines' `space` member of a space's export (what was taken out). */
function spaceOf(row: Export): { space?: string } {
  return row.spaceId ? { space: formatEntityId('space', row.spaceId) } : {};
}
