import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { ScratchBudget } from '../../domain/scratch-budget';
import type { MediaFacts } from '../../media.repository';
import { MediaStorage } from '../storage/media-storage';
import { AvProbe, StoredMedia } from './av-probe';
import { FfmpegTools } from './ffmpeg-tools';
import { ProcessingInput } from './processing-input';

/**
 * The process's one AvProbe and scratch budget (MEDIA_SCRATCH_MAX_BYTES bounds every temporary
 * copy at once, docs/decisions/0112-media-scratch-volume.md), shared by the processing job and a
 * space import (docs/decisions/0231-a-space-import-copies-its-media.md). It sits with the records
 * (MediaRecordsModule) because the imports service does. Errors are AvProbe's.
 */
@Injectable()
export class AvProbeService {
  private readonly probe: AvProbe;
  private readonly scratch: ScratchBudget;
  private readonly input: ProcessingInput;

  constructor(config: AppConfig, storage: MediaStorage) {
    const tools = new FfmpegTools(
      config.MEDIA_FFPROBE_PATH,
      config.MEDIA_FFMPEG_PATH,
      config.MEDIA_PROBE_TIMEOUT_MS,
    );
    this.scratch = new ScratchBudget(config.MEDIA_SCRATCH_MAX_BYTES);
    this.input = new ProcessingInput(storage, this.scratch, config.mediaScratchDir);
    this.probe = new AvProbe(tools, storage, this.input, config.MEDIA_MAX_IMAGE_PIXELS);
  }

  /** Bytes of temporary copies held now (MEDIA_SCRATCH_MAX_BYTES bounds them). */
  get scratchInUse(): number {
    return this.scratch.inUse;
  }

  /** A stored media's facts, its poster stored as `<id>/poster.jpg`. */
  stored(media: StoredMedia): Promise<MediaFacts> {
    return this.probe.probe(media);
  }
}
