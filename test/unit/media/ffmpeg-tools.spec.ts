import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FfmpegTools } from '../../../src/media/services/processing/ffmpeg-tools';

/**
 * Every ffprobe and ffmpeg run reads its input through the `file` protocol only, with the demuxer
 * pinned to the sniffed container, never ffmpeg's own guess
 * (docs/decisions/0111-media-processing-containment.md).
 */
describe('FfmpegTools input options', () => {
  let directory: string;
  let tools: FfmpegTools;
  const runs = () => readFile(join(directory, 'argv'), 'utf8').then((text) => text.trim().split('\n'));

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'plat-tool-argv-'));
    // A stand-in for both tools: records its arguments, one run per line, and answers empty JSON.
    const tool = join(directory, 'tool');
    await writeFile(tool, `#!/bin/sh\necho "$*" >> "${directory}/argv"\necho '{}'\n`);
    await chmod(tool, 0o755);
    tools = new FfmpegTools(tool, tool, 10_000);
  });

  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('pins the protocol and the demuxer before the input, for the probe, frames and PCM', async () => {
    const input = { path: '/data/media/x/original-y', demuxer: 'mp3' };
    await tools.probe(input);
    await tools.frame(input, { seconds: 1 });
    await tools.frame(input, { stream: 1 });
    const pcm = tools.pcm(input, 8000);
    pcm.samples.resume();
    await pcm.done;
    const pinned = '-protocol_whitelist file -f mp3 -i file:/data/media/x/original-y';
    const lines = await runs();
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toContain(pinned);
    // Nothing reads the input before the pinned options.
    for (const line of lines)
      expect(line.indexOf(' -i ')).toBe(line.indexOf(pinned) + pinned.indexOf(' -i '));
  });
});
