import { Client } from 'pg';
import { requestScopes } from '../../src/infrastructure/http/request-scope';

/**
 * The SQL statements the requests made while `run` runs send to PostgreSQL, at the pg client (so
 * statements that do not go through TypeORM's query events are counted too). Only statements sent
 * from the scope of a request that started during `run` count: other modules' repeating jobs (the
 * media sweep, the events horizon refresh) may run meanwhile, and so may the after-commit work of
 * an earlier request, which runs in that request's scope. (A suite counting a post create keeps
 * the chain outbox sweep and post announcements, which would run in a request's scope, an hour
 * away.)
 */
export async function statementsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const started = new WeakSet<object>();
  const enter = requestScopes.run;
  // Shadows the prototype's method on this one instance: every request enters its scope here.
  requestScopes.run = function (this: typeof requestScopes, scope: object, ...rest: unknown[]) {
    started.add(scope);
    return (enter as (...all: unknown[]) => unknown).call(this, scope, ...rest);
  } as typeof enter;
  const query = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const [text] = args as [string | { text: string }];
    const scope = requestScopes.getStore();
    if (scope && started.has(scope)) statements.push(typeof text === 'string' ? text : text.text);
    return (query as (...all: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await run();
  } finally {
    Client.prototype.query = query;
    delete (requestScopes as { run?: unknown }).run;
  }
  return statements.map((statement) => statement.replace(/\s+/g, ' ').trim());
}

/** The statements that name `table` (as a whole word). */
export const naming = (statements: string[], table: string) =>
  statements.filter((statement) => new RegExp(`\\b${table}\\b`).test(statement));

/**
 * Leaves out the identity cache's missed-invalidation epoch read: with Redis, a replica re-reads it
 * at most once a second (EPOCH_CHECK_INTERVAL_MS, docs/decisions/0105-identity-cache-missed-invalidations.md),
 * in whichever request comes first after that second, so on a slow machine it can fall into any
 * counted request without being that request's work.
 */
export const ownWork = (statements: string[]) =>
  statements.filter((statement) => !/\brelay_identity_cache_epoch\b/.test(statement));
