import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { Media } from '../../entities/media.entity';
import { probeImage } from '../images/image-probe';
import type { MediaFacts } from '../../media.repository';
import { bytesMatch } from '../../domain/media-types';
import { MediaStorage } from '../storage/media-storage';
import { SNIFF_SAMPLE_BYTES, sniffedType } from '../../domain/sniffed-type';
import { demuxerOf } from '../../domain/demuxers';
import { FfmpegTools, ProbedFile, ProbedStream, ToolFailed, ToolInput } from './ffmpeg-tools';
import { ProcessingInput } from './processing-input';
import { waveformPeaks } from '../../domain/waveform';

/** What the probe needs of a media: its kind (audio or video) and declared type. */
export type ProbedMedia = Pick<Media, 'kind' | 'contentType'>;

/** A media whose bytes are stored (its poster is stored beside them). */
export type StoredMedia = ProbedMedia & Pick<Media, 'id' | 'storageKey' | 'contentLength'>;

/** Samples per second the waveform is computed from: plenty for 200 peaks of any length. */
const WAVEFORM_SAMPLE_RATE = 8000;
/** Posters are kept as JPEG no larger than this on their longest side. */
const POSTER_SIDE = 1280;

/**
 * Audio and video facts (design.md §11 "Probing"), with ffprobe and ffmpeg on a local file of the
 * bytes (ProcessingInput), read as the container they sniff as and nothing else (demuxers.ts):
 * duration; for audio the waveform peaks and the embedded cover art as poster; for video the
 * displayed size and a frame as poster, with the poster's BlurHash. Throws ToolMissing without
 * ffprobe, ToolFailed for bytes the tools refuse. The processing job and a space import's staged
 * files probe stored media alike (docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md).
 */
export class AvProbe {
  constructor(
    private readonly tools: FfmpegTools,
    private readonly storage: MediaStorage,
    private readonly input: ProcessingInput,
    private readonly maxImagePixels: number,
  ) {}

  /** A stored media's facts, its poster stored beside it (`<id>/poster.jpg`): the job's and an import's. */
  async probe(media: StoredMedia): Promise<MediaFacts> {
    const posterKey = `${media.id}/poster.jpg`;
    return this.input.withFile(media.storageKey!, media.contentLength ?? 0, async (path) => {
      const file = { path, demuxer: await this.demuxerFor(media, path) };
      const probed = await this.tools.probe(file);
      return media.kind === 'audio'
        ? await this.audio(file, probed, posterKey)
        : await this.video(file, probed, posterKey);
    });
  }

  /**
   * The container the file's first bytes show (sniffed again, as at upload), which must still be
   * one of the declared type's: the tools read it as that demuxer, never as their own guess.
   */
  private async demuxerFor(media: ProbedMedia, path: string): Promise<string> {
    const handle = await open(path, 'r');
    let sample: Buffer;
    try {
      const { buffer, bytesRead } = await handle.read(
        Buffer.alloc(SNIFF_SAMPLE_BYTES),
        0,
        SNIFF_SAMPLE_BYTES,
        0,
      );
      sample = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
    const sniffed = await sniffedType(sample);
    const demuxer = demuxerOf(sniffed);
    if (!demuxer || !bytesMatch(media.contentType, sniffed)) {
      throw new ToolFailed(
        `the bytes (${sniffed ?? 'unrecognised'}) are not a container processed as ${media.contentType}`,
      );
    }
    return demuxer;
  }

  private async audio(file: ToolInput, probed: ProbedFile, posterKey: string): Promise<MediaFacts> {
    const streams = probed.streams ?? [];
    if (!streams.some((stream) => stream.codec_type === 'audio')) throw new ToolFailed('no audio stream');
    const durationMs = durationOf(probed);
    const { samples, done } = this.tools.pcm(file, WAVEFORM_SAMPLE_RATE);
    const [peaks] = await Promise.all([
      // Without a duration, slices are sized for a minute (longer audio folds into the last one).
      waveformPeaks(samples, ((durationMs ?? 60_000) / 1000) * WAVEFORM_SAMPLE_RATE),
      done,
    ]);
    const cover = streams.find(
      (stream) => stream.codec_type === 'video' && stream.disposition?.attached_pic === 1,
    );
    const art = cover ? await this.pictureOrNone(this.tools.frame(file, { stream: cover.index })) : null;
    const poster = art ? await this.poster(posterKey, art) : {};
    return { durationMs, waveformPeaks: peaks, posterKey: poster.posterKey ?? null };
  }

  private async video(file: ToolInput, probed: ProbedFile, posterKey: string): Promise<MediaFacts> {
    const durationMs = durationOf(probed);
    const picture = (probed.streams ?? []).find(
      (stream) => stream.codec_type === 'video' && stream.disposition?.attached_pic !== 1,
    );
    if (!picture) return { durationMs };
    const [width, height] = displayedSize(picture);
    // A frame a second in (past a fade from black), or from the middle of a shorter video.
    const seconds = Math.min(1, (durationMs ?? 0) / 2000);
    const frame = await this.pictureOrNone(this.tools.frame(file, { seconds }));
    return { durationMs, width, height, ...(frame ? await this.poster(posterKey, frame) : {}) };
  }

  /** A picture ffmpeg could not extract is no reason to refuse the media: it has no poster. */
  private async pictureOrNone(extraction: Promise<Buffer>): Promise<Buffer | null> {
    try {
      const picture = await extraction;
      return picture.length > 0 ? picture : null;
    } catch (error) {
      if (error instanceof ToolFailed) return null;
      throw error;
    }
  }

  /** Stores a poster (as JPEG) beside the media and gives its key and BlurHash. */
  private async poster(
    posterKey: string,
    picture: Buffer,
  ): Promise<Pick<MediaFacts, 'posterKey' | 'blurHash'>> {
    const jpeg = sharp(picture, { limitInputPixels: this.maxImagePixels })
      .resize(POSTER_SIDE, POSTER_SIDE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ mozjpeg: true });
    await this.storage.put(posterKey, jpeg, { contentType: 'image/jpeg' });
    const { blurHash } = await probeImage(await this.storage.get(posterKey), this.maxImagePixels);
    return { posterKey, blurHash };
  }
}

function durationOf(probed: ProbedFile): number | undefined {
  const seconds = Number(probed.format?.duration);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;
}

/** Width and height as played: a quarter-turn rotation (display matrix or `rotate` tag) swaps them. */
function displayedSize(stream: ProbedStream): [number | undefined, number | undefined] {
  const rotation =
    stream.side_data_list?.find((data) => data.rotation !== undefined)?.rotation ??
    Number(stream.tags?.rotate ?? 0);
  const quarterTurn = Math.abs(rotation) % 180 === 90;
  const width = stream.width && stream.width > 0 ? stream.width : undefined;
  const height = stream.height && stream.height > 0 ? stream.height : undefined;
  return quarterTurn ? [height, width] : [width, height];
}
