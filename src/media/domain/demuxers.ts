import { essenceOf } from './media-types';

/**
 * ffmpeg's demuxer for each container `file-type` may find in an audio or video upload
 * (media-types.ts): the tools read a file only as the container it was sniffed as, never as
 * whatever their own probing guesses (an ID3 tag followed by an HLS playlist sniffs as MP3, and
 * ffmpeg's guess would follow the playlist's entries):
 * docs/decisions/0111-media-processing-containment.md.
 */
const DEMUXER_OF_SNIFFED: Readonly<Record<string, string>> = {
  'audio/mpeg': 'mp3',
  'audio/aac': 'aac',
  'audio/x-m4a': 'mov',
  'audio/mp4': 'mov',
  'video/mp4': 'mov',
  'video/x-m4v': 'mov',
  'video/quicktime': 'mov',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'application/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'video/webm': 'matroska',
};

/** The demuxer for a sniffed type (`audio/ogg; codecs=opus` included), or undefined for one the tools are never given. */
export function demuxerOf(sniffed: string | undefined): string | undefined {
  return sniffed === undefined ? undefined : DEMUXER_OF_SNIFFED[essenceOf(sniffed)];
}
