import { Injectable } from '@nestjs/common';
import sharp, { Sharp } from 'sharp';
import { AppConfig } from '../../config/app-config';
import { Media } from '../entities/media.entity';
import { MediaStorage, StoredObject } from '../storage/media-storage';
import { FORMAT_TYPES, ImageTransform, variantKey } from './image-transform';

/** Formats that may hold an animation, which every variant keeps. */
export const MAYBE_ANIMATED = new Set(['image/gif', 'image/webp']);

/**
 * Transformed images (design.md §11 "URLs"): a variant is rendered once, from the original in
 * storage, into storage beside it, and served from there ever after. Renders of one variant that
 * overlap in this process share one; across replicas the last one written wins (same bytes).
 */
@Injectable()
export class ImageVariants {
  private readonly rendering = new Map<string, Promise<StoredObject>>();

  constructor(
    private readonly storage: MediaStorage,
    private readonly config: AppConfig,
  ) {}

  /** The variant's key and size, rendered first when it is not stored yet. */
  async ensure(media: Media, transform: ImageTransform): Promise<{ key: string; size: number }> {
    const key = variantKey(media, transform);
    const stored = await this.storage.stat(key);
    if (stored) return { key, size: stored.size };
    let render = this.rendering.get(key);
    if (!render) {
      render = this.render(media, transform, key).finally(() => this.rendering.delete(key));
      this.rendering.set(key, render);
    }
    return { key, size: (await render).size };
  }

  private async render(media: Media, transform: ImageTransform, key: string): Promise<StoredObject> {
    const original = await this.storage.get(media.storageKey!);
    const animated = MAYBE_ANIMATED.has(media.contentType);
    let image: Sharp = sharp({
      autoOrient: !animated,
      animated,
      limitInputPixels: this.config.MEDIA_MAX_IMAGE_PIXELS,
    });
    original.on('error', (error) => image.destroy(error));
    original.pipe(image);
    if (transform.width !== undefined || transform.height !== undefined) {
      image = image.resize({ width: transform.width, height: transform.height, fit: transform.fit });
    }
    image = this.encoded(image, transform.format);
    return this.storage.put(key, image, { contentType: FORMAT_TYPES[transform.format] });
  }

  private encoded(image: Sharp, format: ImageTransform['format']): Sharp {
    switch (format) {
      case 'avif':
        // Effort 2 of 9: AVIF's default effort costs seconds per large image on first request.
        return image.avif({ effort: 2 });
      case 'webp':
        return image.webp();
      case 'gif':
        return image.gif();
      case 'png':
        return image.png();
      case 'jpeg':
        return image.jpeg({ mozjpeg: true });
    }
  }
}
