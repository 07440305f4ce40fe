import { Controller, Delete, Get, Module, Post, Put } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import {
  declaredRoutes,
  RateLimitClass,
  RateLimitTable,
} from '../../../src/infrastructure/rate-limit/rate-limit-class';
import { RateLimitRoutes } from '../../../src/infrastructure/rate-limit/rate-limit-routes';

@Controller('v1/things/:thing')
class ThingsController {
  @Get()
  @RateLimitClass('read')
  show() {
    return {};
  }

  @Post('notes')
  @RateLimitClass('create')
  note() {
    return {};
  }

  @Put(['stars', 'v1/stars'])
  @RateLimitClass('action')
  star() {
    return {};
  }

  @Post('unlock')
  @RateLimitClass('sensitive')
  unlock() {
    return {};
  }

  @Delete()
  @RateLimitClass('ordinary')
  remove() {
    return {};
  }

  @Get('doc.txt')
  @RateLimitClass('read', { plainTextRefusal: true })
  doc() {
    return '';
  }
}

@Controller('probe')
@RateLimitClass('exempt')
class ProbeController {
  @Get('live')
  live() {
    return {};
  }
}

@Controller('undeclared')
class UndeclaredController {
  @Post()
  open() {
    return {};
  }
}

const charged = (requestClass: string | null, artifact = false) => ({
  exempt: false,
  requestClass,
  artifact,
});

describe('rate-limit table built from route metadata', () => {
  const table = new RateLimitTable(declaredRoutes([ThingsController, ProbeController]));

  it.each([
    ['GET', '/v1/things/t', charged('read')],
    ['HEAD', '/v1/things/t', charged('read')],
    ['POST', '/v1/things/t/notes', charged('post')],
    ['post', '/V1/Things/T/NOTES/', charged('post')],
    ['PUT', '/v1/things/t/stars', charged('upvote')],
    ['PUT', '/v1/things/t/v1/stars', charged('upvote')],
    ['POST', '/v1/things/t/unlock', charged('key-proof-present')],
    ['DELETE', '/v1/things/t', charged(null)],
    ['GET', '/v1/things/t/doc.txt', charged('read', true)],
    ['HEAD', '/v1/things/t/doc.txt', charged('read', true)],
    ['GET', '/v1/things/t/docXtxt', charged('read')],
    ['POST', '/v1/things/t/notes//', charged(null)],
    ['POST', '/v1/things/t/u/notes', charged(null)],
    ['PUT', '/v1/things/t/notes', charged(null)],
    ['GET', '/nowhere', charged('read')],
    ['POST', '/nowhere', charged(null)],
    ['OPTIONS', '/v1/things/t', charged(null)],
  ])('%s %s', (method, path, expected) => {
    expect(table.classify(method, path)).toEqual(expected);
  });

  it('exempts a health-like route whatever the method, and nothing beside it', () => {
    expect(table.classify('GET', '/Probe/Live/').exempt).toBe(true);
    expect(table.classify('POST', '/probe/live').exempt).toBe(true);
    expect(table.classify('GET', '/probe/live/x').exempt).toBe(false);
    expect(table.classify('GET', '/probe').exempt).toBe(false);
  });

  it('names every route without a class', () => {
    expect(() => new RateLimitTable(declaredRoutes([ThingsController, UndeclaredController]))).toThrow(
      'Routes without a rate-limit class (@RateLimitClass): UndeclaredController.open',
    );
  });
});

describe('rate-limit table at boot', () => {
  const boot = async (controller: new () => object) => {
    @Module({ imports: [DiscoveryModule], controllers: [controller], providers: [RateLimitRoutes] })
    class FixtureModule {}
    const moduleRef = await Test.createTestingModule({ imports: [FixtureModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    try {
      await app.init();
      return app.get(RateLimitRoutes);
    } finally {
      await app.close();
    }
  };

  it('refuses to start when a route declares no rate-limit class', async () => {
    await expect(boot(UndeclaredController)).rejects.toThrow(/UndeclaredController\.open/);
  });

  it('starts and classifies when every route declares one', async () => {
    const routes = await boot(ThingsController);
    expect(routes.classify('POST', '/v1/things/t/notes')).toEqual(charged('post'));
  });
});
