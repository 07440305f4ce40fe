import type { Readable } from 'node:stream';

/** api-spec.md "Limits": at most 200 integers, each 0 to 100. */
export const MAX_PEAKS = 200;

/**
 * Waveform peaks of mono signed 16-bit little-endian PCM (what ffmpeg decodes audio to): the
 * loudest sample of each of up to MAX_PEAKS equal slices, scaled so the loudest slice is 100.
 * `expectedSamples` (from the probed duration) sizes the slices; the stream is read once.
 */
export async function waveformPeaks(pcm: Readable, expectedSamples: number): Promise<number[]> {
  const sliceSamples = Math.max(1, Math.ceil(expectedSamples / MAX_PEAKS));
  const peaks: number[] = [];
  let current = 0;
  let inSlice = 0;
  let carry: Buffer | null = null;
  for await (const chunk of pcm) {
    let bytes = chunk as Buffer;
    if (carry) {
      bytes = Buffer.concat([carry, bytes]);
      carry = null;
    }
    const whole = bytes.length - (bytes.length % 2);
    for (let offset = 0; offset < whole; offset += 2) {
      const sample = Math.abs(bytes.readInt16LE(offset));
      if (sample > current) current = sample;
      if (++inSlice === sliceSamples) {
        peaks.push(current);
        current = 0;
        inSlice = 0;
      }
    }
    if (whole < bytes.length) carry = bytes.subarray(whole);
  }
  if (inSlice > 0) peaks.push(current);
  // The duration is an estimate: slices past MAX_PEAKS fold into the last one.
  while (peaks.length > MAX_PEAKS) {
    const extra = peaks.pop()!;
    peaks[peaks.length - 1] = Math.max(peaks[peaks.length - 1], extra);
  }
  const loudest = Math.max(0, ...peaks);
  return peaks.map((peak) => (loudest === 0 ? 0 : Math.round((peak / loudest) * 100)));
}
