import { fileTypeFromBuffer } from 'file-type';

/** Bytes of an upload looked at to tell its type: enough for every format MEDIA_TYPES lists. */
export const SNIFF_SAMPLE_BYTES = 64 * 1024;

/** The MIME type `file-type` recognises in the first bytes of a file, or undefined. */
export async function sniffedType(sample: Buffer): Promise<string | undefined> {
  try {
    return (await fileTypeFromBuffer(sample))?.mime;
  } catch {
    // A sample cut inside a container's directory (ZIP, MP4 boxes): nothing recognised.
    return undefined;
  }
}
