import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Actor } from '../../support/actors';
import {
  bootMedia,
  expectStatus,
  FFMPEG_PRESENT,
  MediaTestApp,
  mint,
  newSpace,
  person,
  settled,
  storedOf,
  upload,
  withFfmpeg,
} from './support';

/**
 * Bytes `file-type` calls MP3 that ffmpeg's own probing reads as `body`: an ID3v2.4 tag flagged
 * with a footer, where `file-type` skips the header and tag only and finds an MPEG audio frame
 * header, while ffmpeg skips the ten footer bytes too and finds `body` (a playlist, a concat list).
 */
function behindId3(body: string): Buffer {
  const tag = Buffer.alloc(10);
  const header = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0x10, 0, 0, 0, tag.length]);
  const footerOrFrame = Buffer.from([0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0, 0, 0]);
  return Buffer.concat([header, tag, footerOrFrame, Buffer.from(body, 'utf8')]);
}

/** An HLS playlist of one segment at `uri`. */
const playlist = (uri: string) =>
  `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXTINF:3.0,\n${uri}\n#EXT-X-ENDLIST\n`;

/**
 * ffprobe and ffmpeg read an upload only as the container it sniffed as, and open
 * nothing but the file itself (docs/decisions/0111-media-processing-containment.md).
 */
(FFMPEG_PRESENT ? describe : describe.skip)(
  'media processing reads only its own file, as its sniffed container',
  () => {
    let t: MediaTestApp;
    let uploader: Actor;
    let space: { id: string };
    let secretDir: string;
    let secretSegment: string;
    let listener: Server;
    let listenerHits: string[];

    beforeAll(async () => {
      t = await bootMedia();
      uploader = await person(t);
      space = await newSpace(uploader, 'Containment');
      // Another file on the server's disk: three seconds of MPEG-TS audio with a media extension.
      secretDir = await mkdtemp(join(tmpdir(), 'plat-secret-'));
      secretSegment = join(secretDir, 'secret.ts');
      await writeFile(
        secretSegment,
        await withFfmpeg(
          ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-c:a', 'mp2', '-f', 'mpegts'],
          'ts',
        ),
      );
      listenerHits = [];
      listener = createServer((request, response) => {
        listenerHits.push(request.url ?? '');
        response.end();
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    });

    afterAll(async () => {
      await new Promise((resolve) => listener?.close(resolve));
      if (secretDir) await rm(secretDir, { recursive: true, force: true });
      await t?.close();
    });

    async function processedAsMp3(bytes: Buffer) {
      const minted = await mint(uploader, space.id, { filename: 'song.mp3', contentType: 'audio/mpeg' });
      expectStatus(await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders), 200);
      return { id: minted.media.id, ...(await settled(uploader, space.id, minted.media.id)) };
    }

    it('attack: an "MP3" (ID3 tag) that is an HLS playlist naming a file on the server is failed, not read as that file', async () => {
      // On main ffprobe guessed the HLS demuxer behind the tag and followed the entry: the media
      // became ready with the other file's duration and waveform.
      const { id, media, status } = await processedAsMp3(behindId3(playlist(secretSegment)));
      expect(status).toBe('failed');
      expect(media.durationMs).toBeUndefined();
      expect(media.waveformPeaks).toBeUndefined();
      expect(await storedOf(t, id)).toEqual([]);
    });

    it('attack: the same playlist naming the file as a file: URL is failed', async () => {
      const { status, media } = await processedAsMp3(behindId3(playlist(`file:${secretSegment}`)));
      expect(status).toBe('failed');
      expect(media.durationMs).toBeUndefined();
    });

    // Defence in depth: ffmpeg 5.1 also refuses these two by its own defaults (an HLS playlist read
    // from a file may open only file, crypto and data; concat's `safe` refuses absolute paths).
    it('attack: an "MP3" that is an HLS playlist of an http URL is failed and the URL never requested', async () => {
      const port = (listener.address() as AddressInfo).port;
      const { status } = await processedAsMp3(behindId3(playlist(`http://127.0.0.1:${port}/segment.ts`)));
      expect(status).toBe('failed');
      expect(listenerHits).toEqual([]);
    });

    it('attack: an "MP3" that is an ffconcat list naming another file is failed', async () => {
      const { status, media } = await processedAsMp3(
        behindId3(`ffconcat version 1.0\nfile 'file:${secretSegment}'\nfile '${secretSegment}'\n`),
      );
      expect(status).toBe('failed');
      expect(media.durationMs).toBeUndefined();
    });

    // Every container of media-types.ts still processes with its demuxer pinned.
    it.each([
      ['audio/ogg', 'tone.ogg', ['-c:a', 'libopus'], 'ogg'],
      ['audio/flac', 'tone.flac', [], 'flac'],
      ['audio/mp4', 'tone.m4a', ['-c:a', 'aac'], 'm4a'],
      ['audio/aac', 'tone.aac', ['-c:a', 'aac', '-f', 'adts'], 'aac'],
      ['video/webm', 'clip.webm', ['-c:v', 'libvpx', '-b:v', '100k'], 'webm'],
      ['video/quicktime', 'clip.mov', ['-c:v', 'mjpeg'], 'mov'],
    ])('processes %s (%s) with its pinned demuxer', async (contentType, filename, codec, extension) => {
      const source = contentType.startsWith('video/')
        ? ['-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=5:duration=2']
        : ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'];
      const bytes = await withFfmpeg([...source, ...codec], extension);
      const minted = await mint(uploader, space.id, { filename, contentType });
      expectStatus(await upload(t, minted.uploadUrl, bytes, minted.uploadHeaders), 200);
      const { media, status } = await settled(uploader, space.id, minted.media.id);
      expect(status).toBe('ready');
      expect(media.durationMs).toBeGreaterThanOrEqual(1900);
      expect(media.durationMs).toBeLessThanOrEqual(2100);
    });
  },
);
