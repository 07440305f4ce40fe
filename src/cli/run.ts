import {
  CredentialInputError,
  IdentityError,
  KeyFileError,
  PlatHttpError,
  PublishRejectedError,
} from '../protocol/client';
import { ProtocolError } from '../protocol/core';
import { credentialIssue, credentialRevoke } from './commands/credential';
import { identityCreate, identityPublish } from './commands/identity';
import { request } from './commands/request';
import { whoami } from './commands/whoami';
import { allowOnly, CliContext, parseCommandLine, UsageError, type OptionName } from './context';
import { COMMAND_HELP, MAIN_HELP } from './help';
import { EXIT, type CliIo } from './io';

interface Command {
  options: OptionName[];
  run: (context: CliContext) => Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  'identity create': {
    options: ['handle', 'display-name', 'assert', 'force', 'offline'],
    run: identityCreate,
  },
  'identity publish': { options: ['handle', 'display-name'], run: identityPublish },
  'credential issue': { options: ['aud', 'scope', 'space', 'expires'], run: credentialIssue },
  'credential revoke': { options: ['offline'], run: credentialRevoke },
  request: { options: ['data', 'credential', 'jti', 'anonymous'], run: request },
  whoami: { options: [], run: whoami },
};

const GROUPS = new Set(['identity', 'credential']);

/**
 * Runs one `plat` command line in-process and resolves to its exit code; output goes through `io`.
 * Never throws: every error is reported on stderr and mapped to an exit code.
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { values, positionals } = parseCommandLine(argv);
    const [first, second] = positionals;
    if (first === undefined || first === 'help') {
      if (first === undefined && !values.help) {
        io.stderr(MAIN_HELP);
        return EXIT.USAGE;
      }
      io.stdout(COMMAND_HELP[positionals.slice(1).join(' ')] ?? MAIN_HELP);
      return EXIT.OK;
    }
    const name = GROUPS.has(first) ? `${first} ${second ?? ''}`.trim() : first;
    const command = COMMANDS[name];
    if (!command) {
      if (GROUPS.has(first) && values.help) {
        io.stdout(MAIN_HELP);
        return EXIT.OK;
      }
      throw new UsageError(`unknown command: plat ${name}`);
    }
    if (values.help) {
      io.stdout(COMMAND_HELP[name]);
      return EXIT.OK;
    }
    allowOnly(name, values, command.options);
    const args = positionals.slice(name.split(' ').length);
    return await command.run(new CliContext(io, values, args));
  } catch (error) {
    return report(io, error);
  }
}

function report(io: CliIo, error: unknown): number {
  const say = (message: string) => io.stderr(`plat: ${message}\n`);
  if (error instanceof UsageError || error instanceof CredentialInputError) {
    say(error.message);
    io.stderr('Run "plat --help" for usage.\n');
    return EXIT.USAGE;
  }
  if (error instanceof KeyFileError) {
    say(error.message);
    return EXIT.KEY_FILE;
  }
  if (error instanceof PlatHttpError || error instanceof PublishRejectedError) {
    say(error.message);
    return EXIT.REFUSED;
  }
  if (error instanceof IdentityError || error instanceof ProtocolError) {
    say(error.message);
    return EXIT.FAILURE;
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    say(`cannot reach the API: ${cause ?? error.message}`);
    return EXIT.FAILURE;
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    say('the API did not answer in time');
    return EXIT.FAILURE;
  }
  say(error instanceof Error ? error.message : String(error));
  return EXIT.FAILURE;
}
