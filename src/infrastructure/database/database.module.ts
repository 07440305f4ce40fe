import { Global, Module } from '@nestjs/common';
import { RequestWrites } from './request-writes';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { servingDataSourceOptions } from './data-source-options';
import { assertMigrated, migrateDatabase, PendingMigrationsError } from './migrate';
import { PoolLiveness } from './pool-liveness';
import { UnansweredConnections } from './unanswered-connections';

/** The connection (migrated before any module uses it), the request write scopes, pool health. */
@Global()
@Module({
  providers: [RequestWrites, UnansweredConnections, PoolLiveness],
  exports: [RequestWrites, PoolLiveness],
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        if (!config.DATABASE_URL)
          throw new Error('DATABASE_URL is not set (main.ts starts the embedded database)');
        return {
          ...servingDataSourceOptions(config.DATABASE_URL, config),
          autoLoadEntities: true,
          // Read by dataSourceFactory below, which runs them under the advisory lock.
          migrationsRun: config.migrateOnBoot,
          toRetry: (error: unknown) => !(error instanceof PendingMigrationsError),
        };
      },
      // Migrations run (or, when left to `npm run migrate`, are checked) before any module can use
      // the connection; they run on connections of their own, without the serving pool's timeouts.
      dataSourceFactory: async (options?: DataSourceOptions) => {
        if (options!.migrationsRun) await migrateDatabase((options as { url: string }).url);
        const dataSource = await new DataSource({ ...options!, migrationsRun: false }).initialize();
        try {
          await assertMigrated(dataSource);
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
