import { ConfigValidationError, loadConfig } from '../../../src/config/app-config';

/**
 * With NODE_ENV=production the service refuses to start without what production
 * needs, each refusal one line naming the variable (docs/decisions/0118-production-config-refusals.md).
 */
describe('production configuration is complete or refused', () => {
  const complete = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://db/plat',
    REDIS_URL: 'redis://redis:6379',
    CURSOR_SECRET: 'c'.repeat(32),
    MEDIA_URL_SECRET: 'm'.repeat(32),
    ERASED_BAN_SECRET: 'e'.repeat(32),
    ORIGIN_KEY: Buffer.alloc(32, 1).toString('base64url'),
    MEDIA_S3_BUCKET: 'plat-media',
  };
  const without = (name: keyof typeof complete, extra: Record<string, string> = {}) => {
    const env: Record<string, string> = { ...complete, ...extra };
    delete env[name];
    return env;
  };
  const refusal = (env: Record<string, string | undefined>): string => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigValidationError);
      return (error as Error).message;
    }
    throw new Error('the configuration was accepted');
  };

  it('starts with every required setting (media in S3)', () => {
    const config = loadConfig(complete);
    expect(config.NODE_ENV).toBe('production');
    expect(config.PLAT_ROLE).toBe('all');
  });

  it.each([
    'DATABASE_URL',
    'REDIS_URL',
    'CURSOR_SECRET',
    'MEDIA_URL_SECRET',
    'ORIGIN_KEY',
    'ERASED_BAN_SECRET',
  ] as const)('refuses to start without %s, naming it', (name) => {
    expect(refusal(without(name))).toBe(`Invalid configuration:\n  - ${name}: required in production`);
  });

  it('refuses OUTBOUND_ALLOWED_PRIVATE_HOSTS: production never fetches from private addresses', () => {
    expect(refusal({ ...complete, OUTBOUND_ALLOWED_PRIVATE_HOSTS: '127.0.0.1:8080' })).toBe(
      'Invalid configuration:\n  - OUTBOUND_ALLOWED_PRIVATE_HOSTS: must be empty in production (it lets outbound fetches reach private addresses)',
    );
    expect(
      loadConfig({ ...complete, OUTBOUND_ALLOWED_PRIVATE_HOSTS: '' }).outboundAllowedPrivateHosts,
    ).toEqual([]);
    expect(
      loadConfig({ NODE_ENV: 'test', OUTBOUND_ALLOWED_PRIVATE_HOSTS: 'localhost:1, [::1]:2' })
        .outboundAllowedPrivateHosts,
    ).toEqual(['localhost:1', '[::1]:2']);
    expect(() => loadConfig({ NODE_ENV: 'test', OUTBOUND_ALLOWED_PRIVATE_HOSTS: 'localhost' })).toThrow(
      /OUTBOUND_ALLOWED_PRIVATE_HOSTS must list host:port pairs/,
    );
  });

  it('refuses an empty value as missing (REDIS_URL= in a manifest)', () => {
    expect(refusal({ ...complete, REDIS_URL: '' })).toBe(
      'Invalid configuration:\n  - REDIS_URL: required in production',
    );
  });

  it('refuses the default media directory (inside the pod) when no bucket is set', () => {
    expect(refusal(without('MEDIA_S3_BUCKET'))).toBe(
      'Invalid configuration:\n  - MEDIA_S3_BUCKET: required in production unless MEDIA_DIR is set to the ' +
        'absolute path of a mounted volume (the default directory does not survive the pod)',
    );
  });

  it('refuses a relative MEDIA_DIR (a path in the image, not a mounted volume), even the default spelled out', () => {
    for (const dir of ['.data/media', 'media']) {
      expect(refusal(without('MEDIA_S3_BUCKET', { MEDIA_DIR: dir }))).toBe(
        'Invalid configuration:\n  - MEDIA_DIR: must be the absolute path of a mounted volume in production ' +
          '(or set MEDIA_S3_BUCKET)',
      );
    }
  });

  it('starts with an explicit absolute MEDIA_DIR instead of a bucket (the operator mounts a volume there)', () => {
    const config = loadConfig(without('MEDIA_S3_BUCKET', { MEDIA_DIR: '/var/lib/plat/media' }));
    expect(config.MEDIA_DIR).toBe('/var/lib/plat/media');
    expect(config.MEDIA_S3_BUCKET).toBeUndefined();
  });

  it('lists every missing setting at once, one line each', () => {
    expect(refusal({ NODE_ENV: 'production' })).toBe(
      [
        'Invalid configuration:',
        '  - DATABASE_URL: required in production',
        '  - REDIS_URL: required in production',
        '  - CURSOR_SECRET: required in production',
        '  - MEDIA_URL_SECRET: required in production',
        '  - ORIGIN_KEY: required in production',
        '  - ERASED_BAN_SECRET: required in production',
        '  - MEDIA_S3_BUCKET: required in production unless MEDIA_DIR is set to the absolute path of a ' +
          'mounted volume (the default directory does not survive the pod)',
      ].join('\n'),
    );
  });

  it('asks none of it of development and test', () => {
    expect(() => loadConfig({ NODE_ENV: 'development' })).not.toThrow();
    expect(() => loadConfig({ NODE_ENV: 'test' })).not.toThrow();
  });

  it('asks only for the database of the migrate step (npm run migrate)', () => {
    const config = loadConfig(
      { NODE_ENV: 'production', DATABASE_URL: 'postgres://db/plat' },
      {
        checkServiceSettings: false,
      },
    );
    expect(config.DATABASE_URL).toBe('postgres://db/plat');
  });
});

/** One image, two roles (docs/decisions/0117-process-roles.md). */
describe('PLAT_ROLE', () => {
  it('defaults to all: serves the API and runs jobs (npm start unchanged)', () => {
    const config = loadConfig({});
    expect(config.PLAT_ROLE).toBe('all');
    expect([config.servesApi, config.runsJobs]).toEqual([true, true]);
  });

  it('api serves and runs no job; worker runs jobs and serves no API', () => {
    const api = loadConfig({ PLAT_ROLE: 'api', REDIS_URL: 'redis://redis:6379' });
    expect([api.servesApi, api.runsJobs]).toEqual([true, false]);
    const worker = loadConfig({ PLAT_ROLE: 'worker', REDIS_URL: 'redis://redis:6379' });
    expect([worker.servesApi, worker.runsJobs]).toEqual([false, true]);
  });

  it('refuses a role it does not know', () => {
    expect(() => loadConfig({ PLAT_ROLE: 'scheduler' })).toThrow(
      new ConfigValidationError(
        'Invalid configuration:\n  - PLAT_ROLE: PLAT_ROLE must be one of: api, worker, all',
      ),
    );
    expect(() => loadConfig({ PLAT_ROLE: 'API' })).toThrow(/PLAT_ROLE must be one of: api, worker, all/);
  });

  it.each(['api', 'worker'])(
    'refuses PLAT_ROLE=%s without REDIS_URL (the in-process queue is one process)',
    (role) => {
      expect(() => loadConfig({ PLAT_ROLE: role })).toThrow(
        new ConfigValidationError(
          `Invalid configuration:\n  - REDIS_URL: required with PLAT_ROLE=${role} (the in-process job queue cannot cross processes)`,
        ),
      );
    },
  );
});
