import { Global, Module } from '@nestjs/common';
import { RequestWrites } from './request-writes';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { baseDataSourceOptions } from './data-source-options';
import { assertMigrated, PendingMigrationsError, runMigrationsExclusively } from './migrate';

/** The connection (migrated before any module uses it) and the request write scopes. */
@Global()
@Module({
  providers: [RequestWrites],
  exports: [RequestWrites],
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        if (!config.DATABASE_URL)
          throw new Error('DATABASE_URL is not set (main.ts starts the embedded database)');
        return {
          ...baseDataSourceOptions(config.DATABASE_URL, config.DATABASE_POOL_SIZE),
          autoLoadEntities: true,
          // Read by dataSourceFactory below, which runs them under the advisory lock.
          migrationsRun: config.migrateOnBoot,
          toRetry: (error: unknown) => !(error instanceof PendingMigrationsError),
        };
      },
      // Migrations run (or, when left to `npm run migrate`, are checked) before any module can use
      // the connection.
      dataSourceFactory: async (options?: DataSourceOptions) => {
        const dataSource = await new DataSource({ ...options!, migrationsRun: false }).initialize();
        try {
          if (options!.migrationsRun) await runMigrationsExclusively(dataSource);
          else await assertMigrated(dataSource);
        } catch (error) {
          await dataSource.destroy();
          throw error;
        }
        return dataSource;
      },
    }),
  ],
})
export class DatabaseModule {}
