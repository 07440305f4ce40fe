import { Client } from 'pg';
import { requestScopes } from '../../src/infrastructure/http/request-scope';

/**
 * The SQL statements a request sends to PostgreSQL while `run` runs, at the pg client (so
 * statements that do not go through TypeORM's query events are counted too). Only statements sent
 * from a request's scope count: other modules' repeating jobs (the media sweep, the events
 * horizon refresh) may run meanwhile. (A suite counting a post create keeps the chain outbox
 * sweep and post announcements, which would run in a request's scope, an hour away.)
 */
export async function statementsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const [text] = args as [string | { text: string }];
    if (requestScopes.getStore()) statements.push(typeof text === 'string' ? text : text.text);
    return (query as (...all: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await run();
  } finally {
    Client.prototype.query = query;
  }
  return statements.map((statement) => statement.replace(/\s+/g, ' ').trim());
}
