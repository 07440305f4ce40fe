import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { JobQueue } from '../../../infrastructure/jobs/job-queue';
import { Metrics } from '../../../infrastructure/metrics/metrics';
import { Media } from '../../entities/media.entity';
import { MediaLifecycleService } from '../media-lifecycle.service';
import { MediaStorage } from '../storage/media-storage';
import { AvProbeService } from './av-probe.service';
import { ToolFailed, ToolMissing } from './ffmpeg-tools';
import { ScratchTooSmall } from '../../domain/scratch-budget';
import { PROBE_JOB, ProbeJob } from '../../events/media.events';

/**
 * Audio and video processing as a job (design.md §11 "Probing", events/media-jobs.subscriber.ts). The job is
 * idempotent: it acts only on a media whose bytes are stored and that is still pending. Bytes the
 * tools refuse fail the media (the reason logged); without ffprobe the media is ready, lacking
 * only what the tools would have found; other failures (storage, database, a scratch directory
 * without room: ScratchSpaceShort) are retried, and the sweep fails a media whose processing never
 * finishes.
 */
@Injectable()
export class MediaProcessingService {
  private readonly logger = new Logger(MediaProcessingService.name);
  private readonly failures;

  constructor(
    private readonly jobs: JobQueue,
    private readonly lifecycle: MediaLifecycleService,
    private readonly config: AppConfig,
    private readonly storage: MediaStorage,
    metrics: Metrics,
    private readonly probe: AvProbeService,
  ) {
    this.failures = metrics.counter(
      'plat_media_processing_failures_total',
      'Media that processing failed for good, per media kind and reason',
      ['kind', 'reason'],
    );
  }

  /** Bytes of temporary copies held now (MEDIA_SCRATCH_MAX_BYTES bounds them). */
  get scratchInUse(): number {
    return this.probe.scratchInUse;
  }

  /** Queues the processing of a media whose bytes were just stored. */
  async enqueue(media: Media): Promise<void> {
    await this.jobs.add<ProbeJob>(PROBE_JOB, { mediaId: media.id }, { jobId: media.id });
  }

  async process(mediaId: string): Promise<void> {
    const media = await this.lifecycle.byId(mediaId);
    if (!media || media.state !== 'pending' || media.uploadedAt === null) return;
    try {
      await this.lifecycle.processed(media.id, await this.probe.stored(media));
    } catch (error) {
      if (error instanceof ToolMissing) {
        this.logger.warn(`media ${media.id} ready without audio/video facts: ${error.message}`);
        await this.lifecycle.processed(media.id, {});
      } else if (error instanceof ToolFailed || error instanceof ScratchTooSmall) {
        this.logger.warn(`media ${media.id} failed: ${error.message}`);
        if (await this.lifecycle.processingFailed(media.id, error.message)) {
          this.failures.inc({
            kind: media.kind,
            reason: error instanceof ToolFailed ? 'refused' : 'no_scratch',
          });
          await this.dropBytes(media);
        }
      } else {
        throw error;
      }
    }
  }

  /** A failed media's bytes (and any poster already made) are not kept. */
  private async dropBytes(media: Pick<Media, 'id' | 'storageKey'>): Promise<void> {
    await this.storage.delete(media.storageKey!);
    await this.storage.delete(`${media.id}/poster.jpg`);
  }

  async sweep(): Promise<{ deleted: number; failed: number }> {
    const swept = await this.lifecycle.sweep(
      this.config.MEDIA_UPLOAD_TTL * 1000,
      this.config.MEDIA_PROCESSING_TTL * 1000,
    );
    if (swept.failed.length > 0) {
      this.logger.warn(`${swept.failed.length} media failed: processing did not finish in time`);
    }
    // Their bytes go as a processing failure's do: nothing keeps what no one can use.
    for (const media of swept.failed) {
      this.failures.inc({ kind: media.kind, reason: 'timed_out' });
      if (media.storageKey !== null) await this.dropBytes({ id: media.id, storageKey: media.storageKey });
    }
    return { deleted: swept.deleted, failed: swept.failed.length };
  }
}
