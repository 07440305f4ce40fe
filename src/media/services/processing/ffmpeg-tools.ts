import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

/** The tool is not installed (spawn found no such file): media are ready without its facts. */
export class ToolMissing extends Error {
  constructor(readonly command: string) {
    super(`${command} is not installed`);
  }
}

/** The tool ran and refused the input (or took too long): the media's bytes are not what they claim. */
export class ToolFailed extends Error {}

/** What ffprobe says of a file (`-show_format -show_streams`), the parts used here. */
export interface ProbedFile {
  format?: { duration?: string };
  streams?: ProbedStream[];
}

export interface ProbedStream {
  index: number;
  codec_type?: string;
  width?: number;
  height?: number;
  disposition?: { attached_pic?: number };
  side_data_list?: { rotation?: number }[];
  tags?: { rotate?: string };
}

const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** A local file and the demuxer (demuxers.ts) it is read with. */
export interface ToolInput {
  path: string;
  demuxer: string;
}

/**
 * The input options of every run: only the `file` protocol (nothing the file names, such as a
 * playlist's or a concat list's entries over http, data or another file's protocol, is opened by
 * another one), and the demuxer pinned, so the bytes are read as their sniffed container and never
 * as what ffmpeg's own probing would guess (docs/decisions/0111-media-processing-containment.md).
 */
function inputOptions(input: ToolInput): string[] {
  return ['-protocol_whitelist', 'file', '-f', input.demuxer, '-i', `file:${input.path}`];
}

/**
 * ffprobe and ffmpeg from the system (MEDIA_FFPROBE_PATH, MEDIA_FFMPEG_PATH), run on a local file
 * with a time limit each. Nothing is passed through a shell.
 */
export class FfmpegTools {
  constructor(
    private readonly ffprobePath: string,
    private readonly ffmpegPath: string,
    private readonly timeoutMs: number,
  ) {}

  async probe(input: ToolInput): Promise<ProbedFile> {
    const output = await this.run(this.ffprobePath, [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      ...inputOptions(input),
    ]);
    try {
      return JSON.parse(output.toString('utf8')) as ProbedFile;
    } catch {
      throw new ToolFailed('ffprobe answered something that is not JSON');
    }
  }

  /** One video frame at `seconds` (or one attached picture, by stream index) as PNG. */
  frame(input: ToolInput, at: { seconds: number } | { stream: number }): Promise<Buffer> {
    const reading =
      'seconds' in at
        ? ['-ss', at.seconds.toFixed(3), ...inputOptions(input)]
        : [...inputOptions(input), '-map', `0:${at.stream}`];
    return this.run(this.ffmpegPath, [
      '-v',
      'error',
      ...reading,
      '-frames:v',
      '1',
      '-f',
      'image2pipe',
      '-vcodec',
      'png',
      'pipe:1',
    ]);
  }

  /** The audio as mono signed 16-bit PCM at `sampleRate`, streamed; `done` settles when ffmpeg exits. */
  pcm(input: ToolInput, sampleRate: number): { samples: Readable; done: Promise<void> } {
    const child = spawn(
      this.ffmpegPath,
      [
        '-v',
        'error',
        ...inputOptions(input),
        '-vn',
        '-ac',
        '1',
        '-ar',
        String(sampleRate),
        '-f',
        's16le',
        '-acodec',
        'pcm_s16le',
        'pipe:1',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return { samples: child.stdout, done: this.exited(child, this.ffmpegPath) };
  }

  private async run(command: string, args: string[]): Promise<Buffer> {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    await this.exited(child, command);
    return Buffer.concat(chunks);
  }

  private exited(child: ReturnType<typeof spawn>, command: string): Promise<void> {
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      if (errors.length < 1000) errors += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), this.timeoutMs);
    return new Promise<void>((resolve, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(error.code === 'ENOENT' ? new ToolMissing(command) : error);
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) return resolve();
        const why = signal ? `was stopped (${signal})` : `exited ${code}`;
        reject(new ToolFailed(`${command} ${why}: ${errors.trim().split('\n')[0] ?? ''}`.trim()));
      });
    });
  }
}
