import type { ImageFit, ImageTransform } from './image-transform';

/** Width and height of an image as shown, or of one frame of an animation. */
export interface FrameSize {
  width: number;
  height: number;
}

/** Fits whose answer has exactly the requested box when both `w` and `h` are given. */
const BOX_FITS: ReadonlySet<ImageFit> = new Set(['cover', 'contain', 'fill']);

/**
 * The transform as rendered: never larger than the source (docs/decisions/0107-image-transform-bounds.md).
 * A box fit (`cover`, `contain`, `fill`) asking for more than the source keeps the asked shape,
 * scaled down until it fits inside the source; one dimension, `inside` and `outside` stop at the
 * source's size (no resize at all). Requests that render the same pixels get the same transform,
 * hence one stored variant.
 */
export function boundedTransform(source: FrameSize, transform: ImageTransform): ImageTransform {
  const { width, height, fit } = transform;
  if (width === undefined && height === undefined) return transform;
  // A size never probed (not expected of a ready image): sharp's withoutEnlargement still holds.
  if (!(source.width > 0 && source.height > 0)) return transform;
  const unresized = { ...transform, width: undefined, height: undefined, fit: 'cover' as const };
  if (width !== undefined && height !== undefined && BOX_FITS.has(fit)) {
    const shrink = Math.min(1, source.width / width, source.height / height);
    const box = {
      width: Math.max(1, Math.round(width * shrink)),
      height: Math.max(1, Math.round(height * shrink)),
    };
    if (box.width === source.width && box.height === source.height) return unresized;
    return { ...transform, ...box };
  }
  if (scaleOf(source, transform) >= 1) return unresized;
  // One dimension scales the other alike whatever the fit: one variant for all five.
  return width === undefined || height === undefined ? { ...transform, fit: 'cover' } : transform;
}

/** The size of one output frame of a bounded transform (what the pixel cap counts). */
export function outputFrameSize(source: FrameSize, transform: ImageTransform): FrameSize {
  const { width, height, fit } = transform;
  if (width !== undefined && height !== undefined && BOX_FITS.has(fit)) return { width, height };
  const scale = Math.min(1, scaleOf(source, transform));
  return {
    width: Math.max(1, Math.round(source.width * scale)),
    height: Math.max(1, Math.round(source.height * scale)),
  };
}

/** The factor sharp scales the source by for one dimension, `inside` or `outside`. */
function scaleOf(source: FrameSize, { width, height, fit }: ImageTransform): number {
  const byWidth = width === undefined ? undefined : width / source.width;
  const byHeight = height === undefined ? undefined : height / source.height;
  if (byWidth === undefined) return byHeight ?? 1;
  if (byHeight === undefined) return byWidth;
  return fit === 'outside' ? Math.max(byWidth, byHeight) : Math.min(byWidth, byHeight);
}
