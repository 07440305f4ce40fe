import type { DataSource, EntityManager } from 'typeorm';

/**
 * Runs `work` in one read-only REPEATABLE READ transaction: every statement through its manager
 * sees the database as of the first one, whatever commits meanwhile
 * (docs/decisions/0238-an-export-reads-one-snapshot.md). The session's
 * `idle_in_transaction_session_timeout` is lifted for it: `work` may stream between statements
 * for as long as it needs (a lost client is still caught by TCP keep-alive); `statement_timeout`
 * still bounds each statement.
 */
export function readOnlySnapshot<T>(
  dataSource: DataSource,
  work: (snapshot: EntityManager) => Promise<T>,
): Promise<T> {
  return dataSource.transaction('REPEATABLE READ', async (snapshot) => {
    await snapshot.query('SET TRANSACTION READ ONLY');
    await snapshot.query('SET LOCAL idle_in_transaction_session_timeout = 0');
    return work(snapshot);
  });
}
