import { answer, type TwinHandler } from './context';

/**
 * The health routes, bare. `/health/live` runs `SELECT 1` as the app's pool check does
 * (PoolLiveness) before answering; `/health/ready` is terminus' answer around a timed `SELECT 1`
 * (its `responseTime` is a measured number of milliseconds: verify masks it).
 */
export const healthLive: TwinHandler = async ({ pool }) => {
  await pool.query('SELECT 1');
  return answer({ status: 'ok' });
};

export const healthReady: TwinHandler = async ({ pool }) => {
  const started = Date.now();
  await pool.query('SELECT 1');
  const database = { responseTime: Date.now() - started, status: 'up' };
  return answer({ status: 'ok', info: { database }, error: {}, details: { database } });
};
