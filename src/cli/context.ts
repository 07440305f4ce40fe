import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock, type Clock } from '../protocol/core';
import {
  PlatClient,
  readKeyFile,
  writeKeyFile,
  type KeyFileJson,
  type LoadedKeyFile,
} from '../protocol/client';
import type { CliIo } from './io';

export const DEFAULT_API = 'http://localhost:3000';

/** A bad command line: exit code 2, with a hint to --help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Every option of every command; each command accepts a subset (COMMAND_OPTIONS). */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  keys: { type: 'string' },
  api: { type: 'string' },
  host: { type: 'string' },
  json: { type: 'boolean' },
  handle: { type: 'string' },
  'display-name': { type: 'string' },
  assert: { type: 'boolean' },
  force: { type: 'boolean' },
  offline: { type: 'boolean' },
  aud: { type: 'string' },
  scope: { type: 'string', multiple: true },
  space: { type: 'string', multiple: true },
  expires: { type: 'string' },
  data: { type: 'string', short: 'd' },
  credential: { type: 'string' },
  jti: { type: 'string' },
  anonymous: { type: 'boolean' },
} as const;

export type OptionName = keyof typeof OPTIONS;
const GLOBAL_OPTIONS: OptionName[] = ['help', 'keys', 'api', 'host', 'json'];

export type OptionValues = {
  [K in OptionName]?: (typeof OPTIONS)[K] extends { multiple: true }
    ? string[]
    : (typeof OPTIONS)[K] extends { type: 'boolean' }
      ? boolean
      : string;
};

export interface ParsedCommandLine {
  values: OptionValues;
  positionals: string[];
}

export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as OptionValues, positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Refuses options the command does not take (parsing accepted the union of all commands). */
export function allowOnly(command: string, values: OptionValues, allowed: readonly OptionName[]): void {
  const permitted = new Set<OptionName>([...GLOBAL_OPTIONS, ...allowed]);
  for (const name of Object.keys(values) as OptionName[]) {
    if (values[name] !== undefined && !permitted.has(name)) {
      throw new UsageError(`"plat ${command}" does not take --${name}`);
    }
  }
}

/** What a command works with: parsed options, resolved settings, and the io. */
export class CliContext {
  readonly clock: Clock;

  constructor(
    readonly io: CliIo,
    readonly values: OptionValues,
    readonly args: string[],
  ) {
    this.clock = io.clock ?? systemClock;
  }

  get json(): boolean {
    return this.values.json === true;
  }

  /** --keys, PLAT_KEYS, $XDG_CONFIG_HOME/plat/keys.json, ~/.config/plat/keys.json. */
  get keysPath(): string {
    const explicit = this.values.keys ?? this.io.env.PLAT_KEYS;
    if (explicit) return isAbsolute(explicit) ? explicit : resolve(explicit);
    const config = this.io.env.XDG_CONFIG_HOME || join((this.io.homedir ?? homedir)(), '.config');
    return join(config, 'plat', 'keys.json');
  }

  /** Whether an API was named (flag or environment), as opposed to the default. */
  get apiGiven(): boolean {
    return Boolean(this.values.api ?? this.io.env.PLAT_API);
  }

  get apiUrl(): string {
    const url = this.values.api ?? this.io.env.PLAT_API ?? DEFAULT_API;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new UsageError(`not a URL: ${url}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new UsageError(`the API URL must be http(s): ${url}`);
    }
    return url.replace(/\/+$/, '');
  }

  /** The API's public host: --host, PLAT_HOST, or the host of the API URL. */
  get host(): string {
    return this.values.host ?? this.io.env.PLAT_HOST ?? new URL(this.apiUrl).host;
  }

  client(): PlatClient {
    return new PlatClient({
      baseUrl: this.apiUrl,
      audience: this.host,
      fetch: this.io.fetch,
      clock: this.clock,
    });
  }

  loadKeys(): Promise<LoadedKeyFile> {
    return readKeyFile(this.keysPath);
  }

  saveKeys(contents: KeyFileJson, overwrite: boolean): Promise<void> {
    return writeKeyFile(this.keysPath, contents, { overwrite });
  }

  out(text = ''): void {
    this.io.stdout(`${text}\n`);
  }

  err(text = ''): void {
    this.io.stderr(`${text}\n`);
  }

  printJson(value: unknown): void {
    this.out(JSON.stringify(value, null, 2));
  }

  /** A value given inline, as `@file`, or as `@-` / `-` (stdin). */
  async readValue(value: string, what: string): Promise<string> {
    if (value === '-' || value === '@-') {
      if (!this.io.readStdin) throw new UsageError(`cannot read ${what} from stdin here`);
      return (await this.io.readStdin()).trim();
    }
    if (value.startsWith('@')) {
      try {
        return (await readFile(value.slice(1), 'utf8')).trim();
      } catch (error) {
        throw new UsageError(`cannot read ${what} from ${value.slice(1)}: ${(error as Error).message}`);
      }
    }
    return value;
  }
}
