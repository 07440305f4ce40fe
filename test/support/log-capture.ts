import { TestingModuleBuilder } from '@nestjs/testing';
import { LOG_DESTINATION } from '../../src/infrastructure/logging/logging.module';

/** One JSON log line as the service writes it. */
export interface LogLine {
  level: number;
  msg?: string;
  req?: { id?: string; method?: string; url?: string; remoteAddress?: string };
  res?: { statusCode?: number };
  err?: { message?: string; stack?: string };
  [field: string]: unknown;
}

/**
 * The service's log, captured: the app writes its lines here instead of standard output (boot it
 * with `LOG_LEVEL` set and `override: log.install`). `text` is every byte written, for grepping.
 * Capture with a test file's first app: nestjs-pino builds one root logger per process (per Jest
 * file), from the settings of the first app that boots; later apps write through it too.
 */
export class CapturedLog {
  private written = '';

  /** pino writes through this (a `DestinationStream`: `write(line)`). */
  readonly destination = {
    write: (chunk: string): void => {
      this.written += chunk;
    },
  };

  readonly install = (builder: TestingModuleBuilder): TestingModuleBuilder =>
    builder.overrideProvider(LOG_DESTINATION).useValue(this.destination);

  get text(): string {
    return this.written;
  }

  lines(): LogLine[] {
    return this.written
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine);
  }

  /** The lines of one request (by its X-Request-Id). */
  linesOf(requestId: string): LogLine[] {
    return this.lines().filter((line) => line.req?.id === requestId);
  }
}
