import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../../db/migrations';

/** Options shared by the application and the migration tooling. Schema changes only ever come from migrations. */
export function baseDataSourceOptions(url: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    // A request waiting for a pooled connection fails after 10 s instead of hanging forever.
    extra: { max: poolSize, application_name: 'plat-api', connectionTimeoutMillis: 10_000 },
  };
}
