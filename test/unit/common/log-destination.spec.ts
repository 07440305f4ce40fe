import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { logDestination, loggerOptions } from '../../../src/infrastructure/logging/logging.module';

/**
 * The service's log lines are written as they are logged (one write(2) on the logging thread),
 * not batched for a thread-pool write later: a line is in the file when the call returns.
 */
describe('log destination', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'plat-log-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has each line written before the logging call returns', () => {
    const path = join(dir, 'out.log');
    const fd = openSync(path, 'w');
    try {
      const logger = pino(loggerOptions({ LOG_LEVEL: 'info' }), logDestination(fd));
      logger.info('first');
      expect(readFileSync(path, 'utf8')).toContain('"msg":"first"');
      logger.warn('second');
      const lines = readFileSync(path, 'utf8').trim().split('\n');
      expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['first', 'second']);
    } finally {
      closeSync(fd);
    }
  });
});
