import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { AppConfig } from '../../../config/app-config';
import { Media } from '../../entities/media.entity';
import { MediaStorage } from '../storage/media-storage';
import { FrameSize } from '../../domain/image-geometry';
import { renderImage } from './image-render';
import { FORMAT_TYPES, ImageTransform, variantKey } from '../../domain/image-transform';
import { RenderSlots } from './render-slots';

/** Formats that may hold an animation, which every variant keeps (within the render caps). */
export const MAYBE_ANIMATED = new Set(['image/gif', 'image/webp']);

/** A variant to serve: from storage by its key, or the bytes just rendered when it was not kept. */
export interface ServedVariant {
  key: string;
  size: number;
  bytes?: Buffer;
}

/**
 * Transformed images (design.md §11 "URLs"): a variant is rendered once, from the original in
 * storage, into storage beside it, and served from there ever after. Renders of one variant that
 * overlap in this process share one; across replicas the last one written wins (same bytes).
 * Renders take a slot (docs/decisions/0106-image-render-slots.md), and at most MEDIA_VARIANTS_PER_MEDIA
 * variants of a media are kept (docs/decisions/0108-image-variant-bound.md).
 */
@Injectable()
export class ImageVariantsService {
  private readonly rendering = new Map<string, Promise<ServedVariant>>();
  /** Per media id, the last keeping decision in flight: one at a time, so the bound is exact here. */
  private readonly keeping = new Map<string, Promise<unknown>>();
  private readonly slots: RenderSlots;

  constructor(
    private readonly storage: MediaStorage,
    private readonly config: AppConfig,
  ) {
    // One libvips thread per render (libvips' default is one per core, each encoder's likewise):
    // renders run side by side in their slots, and CPU stays for the event loop
    // (docs/decisions/0106-image-render-slots.md). A process-wide setting, the upload probe's too.
    sharp.concurrency(1);
    this.slots = new RenderSlots(config.MEDIA_RENDER_CONCURRENCY, config.MEDIA_RENDER_QUEUE);
  }

  /** The variant, rendered first when it is not stored yet (the 503 when no render slot is free). */
  async ensure(media: Media, source: FrameSize, transform: ImageTransform): Promise<ServedVariant> {
    const key = variantKey(media, transform);
    const stored = await this.storage.stat(key);
    if (stored) return { key, size: stored.size };
    let render = this.rendering.get(key);
    if (!render) {
      render = this.renderAndKeep(media, source, transform, key).finally(() => this.rendering.delete(key));
      this.rendering.set(key, render);
    }
    return render;
  }

  private async renderAndKeep(
    media: Media,
    source: FrameSize,
    transform: ImageTransform,
    key: string,
  ): Promise<ServedVariant> {
    const bytes = await this.slots.run(async () =>
      renderImage(await this.storage.get(media.storageKey!), {
        animated: MAYBE_ANIMATED.has(media.contentType),
        source,
        transform,
        limits: {
          maxInputPixels: this.config.MEDIA_MAX_IMAGE_PIXELS,
          maxOutputPixels: this.config.MEDIA_RENDER_MAX_PIXELS,
          maxFrames: this.config.MEDIA_RENDER_MAX_FRAMES,
        },
      }),
    );
    const kept = await this.keepWithinBound(media, key, bytes, transform);
    return kept ? { key, size: bytes.length } : { key, size: bytes.length, bytes };
  }

  /** Stores the variant unless the media already has its share of them; whether it was stored. */
  private async keepWithinBound(
    media: Media,
    key: string,
    bytes: Buffer,
    transform: ImageTransform,
  ): Promise<boolean> {
    const previous = this.keeping.get(media.id) ?? Promise.resolve();
    const decision = previous.then(async () => {
      const limit = this.config.MEDIA_VARIANTS_PER_MEDIA;
      const kept = await this.storage.list(variantFolder(key), limit);
      if (kept.length >= limit) return false;
      await this.storage.put(key, Readable.from([bytes]), { contentType: FORMAT_TYPES[transform.format] });
      return true;
    });
    const settled = decision.catch(() => undefined);
    this.keeping.set(media.id, settled);
    void settled.then(() => {
      if (this.keeping.get(media.id) === settled) this.keeping.delete(media.id);
    });
    return decision;
  }
}

function variantFolder(key: string): string {
  return key.slice(0, key.lastIndexOf('/'));
}
