#!/usr/bin/env node
/**
 * `plat`: the command-line client (package.json "bin"). Importing this module has no side effects;
 * only running it as the main module executes a command line.
 */
import { processIo } from './io';
import { run } from './run';

export { run } from './run';
export { EXIT, processIo, type CliIo } from './io';

if (require.main === module) {
  void run(process.argv.slice(2), processIo()).then((code) => {
    process.exitCode = code;
  });
}
