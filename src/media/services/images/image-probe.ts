import { encode } from 'blurhash';
import type { Readable } from 'node:stream';
import sharp from 'sharp';

export interface ImageFacts {
  width: number;
  height: number;
  blurHash: string;
}

/** The image's bytes could not be decoded (corrupt, truncated, or past MEDIA_MAX_IMAGE_PIXELS). */
export class ImageUndecodable extends Error {
  constructor(cause: unknown) {
    super(`The image could not be decoded: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** The longest side of the thumbnail the blurhash is computed from: enough for 4×3 components. */
const BLURHASH_SIDE = 32;

/**
 * Width and height as shown (EXIF orientation applied; an animation's frame, not its strip) and a
 * BlurHash of the first frame (design.md §11 "Probing").
 */
export async function probeImage(bytes: Readable, maxPixels: number): Promise<ImageFacts> {
  const image = sharp({ autoOrient: true, limitInputPixels: maxPixels, failOn: 'error' });
  bytes.on('error', (error) => image.destroy(error));
  bytes.pipe(image);
  try {
    const metadata = await image.metadata();
    const width = metadata.autoOrient.width;
    const height = metadata.autoOrient.height;
    const thumbnail = await image
      .clone()
      .resize(BLURHASH_SIDE, BLURHASH_SIDE, { fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const blurHash = encode(
      new Uint8ClampedArray(thumbnail.data),
      thumbnail.info.width,
      thumbnail.info.height,
      4,
      3,
    );
    return { width, height, blurHash };
  } catch (error) {
    throw new ImageUndecodable(error);
  }
}
