import { DataSource } from 'typeorm';

export interface SchemaDrift {
  up: string[];
  down: string[];
}

/**
 * The SQL that would bring the migrated schema in line with the registered entities. Empty when
 * migrations and entities agree (the data source must already have run its migrations).
 */
export async function schemaDrift(dataSource: DataSource): Promise<SchemaDrift> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return {
    up: log.upQueries.map((query) => query.query),
    down: log.downQueries.map((query) => query.query),
  };
}
