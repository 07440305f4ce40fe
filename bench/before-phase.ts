import { Pool } from 'pg';
import type { Scenario } from './scenario-kit';

/** Runs a scenario's `beforePhase` on a connection of its own to the run's database. */
export async function beforePhase(
  hook: NonNullable<Scenario['beforePhase']>,
  databaseUrl: string,
): Promise<void> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await hook(pool);
  } finally {
    await pool.end();
  }
}
