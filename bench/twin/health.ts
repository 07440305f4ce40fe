import { answer, type TwinHandler } from './context';

/**
 * The health routes, bare. Both run `SELECT 1` as the app's pool check does (PoolLiveness) before
 * answering; `/health/ready` also looks at this replica's draining state, which costs no statement
 * (docs/decisions/0119-readiness-without-shared-dependencies.md).
 */
export const healthLive: TwinHandler = async ({ pool }) => {
  await pool.query('SELECT 1');
  return answer({ status: 'ok' });
};

export const healthReady: TwinHandler = async ({ pool }) => {
  await pool.query('SELECT 1');
  return answer({ status: 'ok' });
};
