import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

/**
 * The framework ceiling's framework side: a Nest 12 + Express hello world with the defaults (one
 * controller, no middleware, guard, pipe or logger of ours), answering `{"hello":"world"}`. What
 * Nest + Express cost per request on this machine, to read the app's floor against.
 */
@Controller()
class HelloController {
  @Get('hello')
  hello(): { hello: string } {
    return { hello: 'world' };
  }
}

@Module({ controllers: [HelloController] })
class HelloModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(HelloModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = 5_000;
  process.send?.({ type: 'listening', port: (server.address() as AddressInfo).port });
  const stop = () => void app.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
}

main().catch((error: unknown) => {
  process.send?.({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
