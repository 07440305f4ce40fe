import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { loadConfig } from '../src/config/app-config';

/** The real AppModule (every entity registered, migrations applied) without an HTTP listener. */
export async function bootContext(databaseUrl: string): Promise<INestApplicationContext> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl });
  return NestFactory.createApplicationContext(AppModule.forRoot(config), { logger: false });
}
