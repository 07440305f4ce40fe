import { tmpdir } from 'node:os';
import { ArgumentsHost, Controller, Get, HttpStatus } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Anonymous } from '../../../src/common/auth/access.decorators';
import { RouteAccessAudit } from '../../../src/common/auth/route-access.audit';
import { AllExceptionsFilter } from '../../../src/common/errors/all-exceptions.filter';
import { conflict, invalidRequest } from '../../../src/common/errors/api-error';
import { ConfigValidationError, loadConfig } from '../../../src/config/app-config';

describe('configuration', () => {
  it('applies defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.LOG_LEVEL).toBe('info');
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.publicBaseUrl).toBe('http://localhost:3000');
    expect(config.publicHost).toBe('localhost:3000');
  });

  it('reads and converts values, ignoring unrelated variables', () => {
    const config = loadConfig({
      PORT: '8080',
      TRUST_PROXY: 'true',
      PATH: '/bin',
      PUBLIC_BASE_URL: 'https://api.x.org/',
    });
    expect(config.PORT).toBe(8080);
    expect(config.TRUST_PROXY).toBe(true);
    expect(config.publicHost).toBe('api.x.org');
    expect(config.publicBaseUrl).toBe('https://api.x.org');
    expect((config as unknown as Record<string, unknown>).PATH).toBeUndefined();
  });

  it('refuses a media scratch budget smaller than the largest audio or video (0111-media-processing-containment)', () => {
    expect(loadConfig({}).MEDIA_SCRATCH_MAX_BYTES).toBe(1024 * 1024 * 1024);
    expect(() => loadConfig({ MEDIA_SCRATCH_MAX_BYTES: String(500 * 1024 * 1024 - 1) })).toThrow(
      /MEDIA_SCRATCH_MAX_BYTES: must be at least MEDIA_MAX_AUDIO_BYTES and MEDIA_MAX_VIDEO_BYTES/,
    );
    expect(
      loadConfig({
        MEDIA_SCRATCH_MAX_BYTES: '1000',
        MEDIA_MAX_AUDIO_BYTES: '1000',
        MEDIA_MAX_VIDEO_BYTES: '10',
      }).MEDIA_SCRATCH_MAX_BYTES,
    ).toBe(1000);
    expect(loadConfig({}).MEDIA_PROCESSING_CONCURRENCY).toBe(1);
    expect(loadConfig({}).MEDIA_UPLOAD_QUOTA_BYTES_PER_DAY).toBe(2 * 1024 * 1024 * 1024);
    expect(() => loadConfig({ MEDIA_PROCESSING_CONCURRENCY: '0' })).toThrow(ConfigValidationError);
  });

  it('copies media for processing to MEDIA_SCRATCH_DIR, by default the system temporary directory (0112-media-scratch-volume)', () => {
    expect(loadConfig({}).mediaScratchDir).toBe(tmpdir());
    expect(loadConfig({ MEDIA_SCRATCH_DIR: '/scratch' }).mediaScratchDir).toBe('/scratch');
  });

  it('serves metrics only when METRICS_PORT is set, never on the API port (0064-observability-metrics-traceparent-and-hpa)', () => {
    expect(loadConfig({}).METRICS_PORT).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
    expect(loadConfig({ METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(/METRICS_PORT: must differ from PORT/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });

  it('stops with one message naming every bad value', () => {
    const attempt = () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect(attempt).toThrow(ConfigValidationError);
    expect(attempt).toThrow(/PORT/);
    expect(attempt).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
    expect(attempt).toThrow(/LOG_LEVEL/);
  });

  it('names what kind of value is expected, without range rules a non-number cannot meet', () => {
    const message = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('config accepted');
    };
    expect(message({ PORT: 'eighty' })).toBe(
      'Invalid configuration:\n  - PORT: PORT must be an integer number',
    );
    expect(message({ PORT: '70000' })).toBe(
      'Invalid configuration:\n  - PORT: PORT must not be greater than 65535',
    );
  });

  it('reads the media settings: local directory by default, an S3 bucket with its key pair whole', () => {
    const defaults = loadConfig({});
    expect(defaults.MEDIA_DIR).toBe('.data/media');
    expect(defaults.MEDIA_S3_BUCKET).toBeUndefined();
    expect([defaults.MEDIA_UPLOAD_TTL, defaults.MEDIA_URL_TTL]).toEqual([3600, 3600]);
    expect(defaults.MEDIA_MAX_IMAGE_BYTES).toBe(10 * 1024 * 1024);
    const s3 = loadConfig({
      MEDIA_S3_BUCKET: 'plat-media',
      MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000',
      MEDIA_S3_FORCE_PATH_STYLE: 'true',
      MEDIA_S3_PREFIX: 'media/',
    });
    expect([s3.MEDIA_S3_BUCKET, s3.MEDIA_S3_FORCE_PATH_STYLE, s3.MEDIA_S3_PREFIX]).toEqual([
      'plat-media',
      true,
      'media/',
    ]);
    expect(() => loadConfig({ MEDIA_S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(/set both or neither/);
    expect(() => loadConfig({ MEDIA_S3_BUCKET: 'Bad_Bucket' })).toThrow(/MEDIA_S3_BUCKET/);
    expect(() => loadConfig({ MEDIA_S3_PREFIX: '../x' })).toThrow(/MEDIA_S3_PREFIX/);
    expect(() => loadConfig({ MEDIA_URL_SECRET: 'short' })).toThrow(/MEDIA_URL_SECRET/);
    expect(() => loadConfig({ MEDIA_UPLOAD_TTL: '0' })).toThrow(/MEDIA_UPLOAD_TTL/);
  });

  it("keeps image renders to at most half of libuv's thread pool (docs/decisions/0106-image-render-slots.md)", () => {
    const defaults = loadConfig({});
    expect([
      defaults.MEDIA_RENDER_CONCURRENCY,
      defaults.MEDIA_RENDER_QUEUE,
      defaults.MEDIA_RENDER_MAX_PIXELS,
      defaults.MEDIA_RENDER_MAX_FRAMES,
      defaults.MEDIA_VARIANTS_PER_MEDIA,
    ]).toEqual([2, 8, 20_000_000, 300, 32]);
    expect(() => loadConfig({ MEDIA_RENDER_CONCURRENCY: '3' })).toThrow(
      /MEDIA_RENDER_CONCURRENCY: must be at most half of UV_THREADPOOL_SIZE \(4\)/,
    );
    expect(
      loadConfig({ MEDIA_RENDER_CONCURRENCY: '8', UV_THREADPOOL_SIZE: '16' }).MEDIA_RENDER_CONCURRENCY,
    ).toBe(8);
    expect(() => loadConfig({ MEDIA_RENDER_CONCURRENCY: '0' })).toThrow(/MEDIA_RENDER_CONCURRENCY/);
  });

  it('requires DATABASE_URL, CURSOR_SECRET and MEDIA_URL_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/CURSOR_SECRET: required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/MEDIA_URL_SECRET: required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/DATABASE_URL: required in production/);
  });
});

describe('error filter', () => {
  const respond = (exception: unknown) => {
    const response = {
      headersSent: false,
      headers: {} as Record<string, string>,
      statusCode: 0,
      body: '',
      setHeader(name: string, value: string) {
        this.headers[name] = value;
      },
      status(code: number) {
        this.statusCode = code;
      },
      end(body: string) {
        this.body = body;
      },
    };
    const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
    const filter = new AllExceptionsFilter();
    (filter as unknown as { logger: { error: () => void } }).logger = { error: () => undefined };
    filter.catch(exception, host);
    return response;
  };

  it('answers an unexpected exception with a bare 500 (no stack, no SQL)', () => {
    const response = respond(
      new Error('duplicate key value violates unique constraint "users_pkey" SELECT * FROM x'),
    );
    expect(response.statusCode).toBe(HttpStatus.INTERNAL_SERVER_ERROR);
    expect(response.body).toBe('{"code":"E_INTERNAL","message":"Internal error"}');
    expect(response.headers['Cache-Control']).toBe('no-store');
  });

  it('keeps the extra members of an API error', () => {
    const response = respond(invalidRequest('Invalid request', [{ path: 'limit', message: 'bad' }]));
    expect(JSON.parse(response.body)).toEqual({
      code: 'E_INVALID_REQUEST',
      message: 'Invalid request',
      details: [{ path: 'limit', message: 'bad' }],
    });
  });

  it('maps statuses to codes', () => {
    expect(JSON.parse(respond(conflict('Replayed request')).body)).toEqual({
      code: 'E_CONFLICT',
      message: 'Replayed request',
    });
  });
});

describe('route access audit (deny by default)', () => {
  @Controller('undeclared')
  class UndeclaredController {
    @Get()
    open() {
      return {};
    }
  }

  @Controller('declared')
  class DeclaredController {
    @Get()
    @Anonymous()
    open() {
      return {};
    }
  }

  const boot = async (controller: new () => object) => {
    const moduleRef = await Test.createTestingModule({
      imports: [DiscoveryModule],
      controllers: [controller],
      providers: [RouteAccessAudit],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    try {
      await app.init();
    } finally {
      await app.close();
    }
  };

  it('refuses to start when a route declares no access class', async () => {
    await expect(boot(UndeclaredController)).rejects.toThrow(/UndeclaredController\.open/);
  });

  it('starts when every route declares one', async () => {
    await expect(boot(DeclaredController)).resolves.toBeUndefined();
  });
});
