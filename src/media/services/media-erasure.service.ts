import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { DELETE_FILES_JOB, DeleteFilesJob } from '../events/media.events';
import { MediaRepository } from '../media.repository';
import { MediaStorage } from './storage/media-storage';
import { ErasedRows } from '../../common/erasure/erased-rows';

/**
 * Which of these media ids (uuids) a module's rows still name, read in the erasure's transaction:
 * each module that keeps media references in its own tables registers one.
 */
export type MediaReferenceSource = (manager: EntityManager, mediaIds: string[]) => Promise<string[]>;

/** Who a kept media is recorded as uploaded by once its uploader is erased. */
export const ERASED_UPLOADER = 'plat:erased';

/**
 * The media part of an account erasure
 * (docs/decisions/0192-an-erasure-takes-the-persons-media-and-invites.md): every media the person
 * uploaded that no module's rows name any more (the person's own references, avatar, attachments,
 * are gone earlier in the same transaction) is deleted, its space's storage figure dropping its
 * bytes, and its files are deleted after commit by a job recorded in the transaction, retried until
 * done; a rollback deletes no file. A media still named (a space's avatar or a cover the person set
 * as an admin: the space's content) is kept and no longer names its uploader.
 */
@Injectable()
export class MediaErasureService {
  private readonly logger = new Logger(MediaErasureService.name);
  private readonly sources = new Map<string, MediaReferenceSource>();

  constructor(
    private readonly repository: MediaRepository,
    private readonly outbox: JobOutbox,
    private readonly storage: MediaStorage,
    private readonly config: AppConfig,
  ) {}

  /** A module that names media in its rows registers, once, how to find which it still names. */
  registerReferences(module: string, source: MediaReferenceSource): void {
    this.sources.set(module, source);
  }

  /** Rows deleted or no longer naming the person (`media`). */
  async erase(manager: EntityManager, did: string): Promise<ErasedRows> {
    const uploads = await this.repository.uploadsOf(did, manager);
    if (uploads.length === 0) return { media: 0 };
    const named = new Set<string>();
    for (const source of this.sources.values()) {
      for (const id of await source(manager, uploads)) named.add(id);
    }
    const kept = uploads.filter((id) => named.has(id));
    const gone = uploads.filter((id) => !named.has(id));
    await this.repository.dropStoredBytesOf(gone, manager);
    const deleted = await this.repository.deleteUploads(gone, manager);
    await this.repository.forgetUploader(kept, ERASED_UPLOADER, manager);
    if (deleted.length > 0) {
      const job: DeleteFilesJob = { media: deleted };
      await this.outbox.record(manager, DELETE_FILES_JOB, job);
    }
    return { media: deleted.length + kept.length };
  }

  /**
   * Deletes the files of deleted media: original, poster and image variants. Idempotent (deleting
   * an absent object is no error); a storage failure throws, so the job is retried.
   */
  async deleteFiles(job: DeleteFilesJob): Promise<void> {
    for (const media of job.media) {
      for (const key of media.keys) await this.storage.delete(key);
      for (const key of await this.storage.list(
        `${media.id}/variants`,
        this.config.MEDIA_VARIANTS_PER_MEDIA,
      )) {
        await this.storage.delete(key);
      }
    }
    this.logger.log({ media: job.media.length }, 'files of erased media deleted');
  }
}
