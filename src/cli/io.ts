import { homedir } from 'node:os';
import type { Clock } from '../protocol/core';

/** Everything the CLI touches outside itself, so tests can run commands in-process. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** default: global fetch */
  fetch?: typeof fetch;
  /** default: the system clock */
  clock?: Clock;
  /** default: os.homedir() */
  homedir?: () => string;
  /** default: reads process.stdin to the end */
  readStdin?: () => Promise<string>;
}

/** The real process: stdout, stderr, environment, stdin. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    homedir,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** Exit codes of `plat` (also listed in `plat --help`). */
export const EXIT = {
  OK: 0,
  /** anything else went wrong (network, protocol, unexpected) */
  FAILURE: 1,
  /** bad command line */
  USAGE: 2,
  /** key file missing, unreadable, too widely readable or invalid */
  KEY_FILE: 3,
  /** the API or relay answered with an error status or refused an operation */
  REFUSED: 4,
} as const;
