import type { Readable } from 'node:stream';
import sharp, { Sharp } from 'sharp';
import { FrameSize, outputFrameSize } from '../../domain/image-geometry';
import { ImageFormat, ImageTransform } from '../../domain/image-transform';

export interface RenderLimits {
  /** MEDIA_MAX_IMAGE_PIXELS: what the original may decode to, every frame counted. */
  maxInputPixels: number;
  /** MEDIA_RENDER_MAX_PIXELS: output pixels summed over the frames of an animation. */
  maxOutputPixels: number;
  /** MEDIA_RENDER_MAX_FRAMES. */
  maxFrames: number;
}

export interface RenderRequest {
  /** Whether the original's format may hold an animation (GIF, WebP). */
  animated: boolean;
  /** The original's size as shown (one frame of an animation). */
  source: FrameSize;
  /** Already bounded (`boundedTransform`): never larger than the source. */
  transform: ImageTransform;
  limits: RenderLimits;
}

/**
 * The bytes of one variant. An animation is rendered whole only while its frames and their output
 * pixels stay within the caps; past either, its first frame alone is rendered
 * (docs/decisions/0107-image-transform-bounds.md): the answer is still the image asked for, as a still.
 */
export async function renderImage(original: Readable, request: RenderRequest): Promise<Buffer> {
  const bytes = await bytesOf(original);
  const { transform, limits } = request;
  const animate = request.animated && (await withinAnimationCaps(bytes, request));
  let image = sharp(bytes, {
    autoOrient: !animate,
    animated: animate,
    limitInputPixels: limits.maxInputPixels,
  });
  if (transform.width !== undefined || transform.height !== undefined) {
    image = image.resize({
      width: transform.width,
      height: transform.height,
      fit: transform.fit,
      withoutEnlargement: true,
    });
  }
  return encoded(image, transform.format).toBuffer();
}

/**
 * Whether every frame may be rendered: frames, output pixels summed over them, and the frames
 * decoded all at once, within the caps.
 */
async function withinAnimationCaps(
  bytes: Buffer,
  { source, transform, limits }: RenderRequest,
): Promise<boolean> {
  // The header alone (no pixel is decoded): the frames' pixels are held to the cap below.
  const { pages = 1 } = await sharp(bytes, { animated: true, limitInputPixels: false }).metadata();
  if (pages <= 1 || !(source.width > 0 && source.height > 0)) return false;
  const frame = outputFrameSize(source, transform);
  return (
    pages <= limits.maxFrames &&
    pages * frame.width * frame.height <= limits.maxOutputPixels &&
    // The upload probe decoded one frame; every frame must fit MEDIA_MAX_IMAGE_PIXELS to be decoded.
    pages * source.width * source.height <= limits.maxInputPixels
  );
}

function encoded(image: Sharp, format: ImageFormat): Sharp {
  switch (format) {
    case 'avif':
      // Effort 2 of 9: AVIF's default effort costs seconds per large image on first request.
      return image.avif({ effort: 2 });
    case 'webp':
      return image.webp();
    case 'gif':
      // Effort 1 of 10: the default quantizes about ten times slower (bench/JOURNAL.md, 2026-11-29).
      return image.gif({ effort: 1 });
    case 'png':
      return image.png();
    case 'jpeg':
      return image.jpeg({ mozjpeg: true });
  }
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
