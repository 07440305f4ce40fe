import { DataSource } from 'typeorm';

let faults = 0;

/**
 * Makes PostgreSQL refuse a write mid-transaction, for tests of atomicity: a trigger raises on
 * `event` (`INSERT`, `UPDATE`, `UPDATE OF <column>`) of `table`. Returns the repair.
 */
export async function refuseWrites(
  dataSource: DataSource,
  table: string,
  event: string,
): Promise<() => Promise<void>> {
  const name = `test_fault_${++faults}`;
  await dataSource.query(`
    CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'forced failure'; END $$;
    CREATE TRIGGER ${name} BEFORE ${event} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}();`);
  return async () => {
    await dataSource.query(`DROP TRIGGER ${name} ON ${table}; DROP FUNCTION ${name}();`);
  };
}
