import { getMetadataStorage } from 'class-validator';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { load, YAML11_SCHEMA } from 'js-yaml';
import { AppConfig, loadConfig } from '../../../src/config/app-config';

/**
 * docker/compose.yaml, the local production rehearsal (docs/decisions/0102-compose-rehearsal.md), checked like the
 * Kubernetes manifests (manifests.spec.ts) without Docker: the file is parsed, interpolated with
 * .env.example as `docker compose --env-file .env` would, and each tier's environment is loaded
 * with loadConfig as production.
 */

const root = resolve(__dirname, '../../..');
// Parsed YAML is walked freely; the expectations do the type checking.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

const SYSTEM_VARIABLE = /^(UV_THREADPOOL_SIZE|NODE_OPTIONS|NODE_ENV|OTEL_[A-Z0-9_]+)$/;
const CONFIG_NAMES = new Set(
  getMetadataStorage()
    .getTargetValidationMetadatas(AppConfig, '', true, false)
    .map((metadata) => metadata.propertyName),
);
const PRODUCTION_REQUIRED = [
  'DATABASE_URL',
  'REDIS_URL',
  'CURSOR_SECRET',
  'MEDIA_URL_SECRET',
  'ORIGIN_KEY',
  'ERASED_BAN_SECRET',
];

const composeText = readFileSync(join(root, 'docker/compose.yaml'), 'utf8');
const dotEnv = parseDotEnv(readFileSync(join(root, '.env.example'), 'utf8'));
// Compose reads YAML 1.1 merge keys (`<<: *plat-environment`), which js-yaml's default schema does not.
const compose = interpolate(load(composeText, { schema: YAML11_SCHEMA }) as Obj, dotEnv) as Obj;
const services: Obj = compose.services;

function parseDotEnv(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      expect(match).not.toBeNull();
      return [match![1], match![2]] as const;
    });
  return Object.fromEntries(entries);
}

/** Compose interpolation: `${VAR}`, `${VAR:-default}`, `${VAR:?error}`; `$$` is a literal `$`. */
function interpolate(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
      (whole, name?: string, op?: string, arg?: string) => {
        if (whole === '$$') return '$';
        const set = env[name!];
        if (set) return set;
        if (op === '-') return arg!;
        throw new Error(`${name} is not set in .env.example${op === '?' ? ` (${arg})` : ''}`);
      },
    );
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  }
  return value;
}

function environmentOf(service: Obj): Record<string, string> {
  const env = service.environment ?? {};
  expect(Array.isArray(env)).toBe(false);
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
}

const TIERS = [
  { service: 'api', role: 'api' },
  { service: 'worker', role: 'worker' },
];

describe('docker/compose.yaml (0102-compose-rehearsal)', () => {
  it('runs PostgreSQL, Redis, MinIO with its bucket, the migrate step, one api and one worker', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['postgres', 'redis', 'minio', 'minio-init', 'migrate', 'api', 'worker'].sort(),
    );
    expect(services.postgres.image).toMatch(/^postgres:/);
    expect(services.minio.image).toMatch(/minio\/minio/);
    expect(services['minio-init'].command.join(' ')).toContain(
      `mc mb --ignore-existing "local/$MEDIA_S3_BUCKET"`,
    );
    expect(services['minio-init'].environment.MEDIA_S3_BUCKET).toBe(dotEnv.MEDIA_S3_BUCKET);
    for (const oneShot of ['minio-init', 'migrate']) expect(services[oneShot].restart).toBe('no');
  });

  it('configures Redis as BullMQ needs it: no eviction, append-only file synced every second', () => {
    const command: string[] = services.redis.command;
    const flag = (name: string) => command[command.indexOf(name) + 1];
    expect(command[0]).toBe('redis-server');
    expect(flag('--maxmemory-policy')).toBe('noeviction');
    expect(flag('--appendonly')).toBe('yes');
    expect(flag('--appendfsync')).toBe('everysec');
    expect(services.redis.volumes).toContain('redis-data:/data');
  });

  it('builds one image from docker/Dockerfile for migrate, api and worker', () => {
    for (const name of ['migrate', 'api', 'worker']) {
      expect(services[name].image).toBe(services.api.image);
      expect(services[name].build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile' });
    }
  });

  it('migrates with `npm run migrate`’s script, which needs DATABASE_URL only, before either tier starts', () => {
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts;
    expect(services.migrate.command.join(' ')).toBe(scripts.migrate);
    const env = environmentOf(services.migrate);
    expect(Object.keys(env).sort()).toEqual(['DATABASE_URL', 'NODE_ENV']);
    expect(() => loadConfig(env, { checkServiceSettings: false })).not.toThrow();
    expect(services.migrate.depends_on.postgres.condition).toBe('service_healthy');
  });

  it('names in .env.example every variable it interpolates, and nothing else', () => {
    const referenced = new Set([...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]));
    expect([...referenced].sort()).toEqual(Object.keys(dotEnv).sort());
    for (const value of Object.values(dotEnv)) expect(value).not.toBe('');
    // Placeholders, never secrets: each password and key says to change it (ORIGIN_KEY must parse
    // as a key; its comment says how to make one).
    for (const key of Object.keys(dotEnv).filter((k) => /PASSWORD|SECRET/.test(k))) {
      expect(dotEnv[key]).toMatch(/change-me/);
    }
  });

  describe.each(TIERS)('$service (PLAT_ROLE=$role)', (tier) => {
    const service = () => services[tier.service];
    const env = () => environmentOf(service());

    it('boots as production with its role: every required variable and S3 on MinIO', () => {
      expect(env().NODE_ENV).toBe('production');
      for (const key of [...PRODUCTION_REQUIRED, 'MEDIA_S3_BUCKET']) expect(env()[key]).toBeTruthy();
      const config = loadConfig(env());
      expect(config.PLAT_ROLE).toBe(tier.role);
      expect(config.MEDIA_S3_BUCKET).toBe(dotEnv.MEDIA_S3_BUCKET);
      expect(new URL(config.MEDIA_S3_ENDPOINT!).hostname).toBe('minio');
      expect(config.MEDIA_S3_FORCE_PATH_STYLE).toBe(true);
      expect(new URL(config.REDIS_URL!).hostname).toBe('redis');
      expect(new URL(config.DATABASE_URL!).hostname).toBe('postgres');
      expect(config.migrateOnBoot).toBe(false);
    });

    it('names only variables that are settings of AppConfig or known to Node, libuv or OpenTelemetry', () => {
      const names = Object.keys(env());
      expect(names.filter((name) => !CONFIG_NAMES.has(name) && !SYSTEM_VARIABLE.test(name))).toEqual([]);
    });

    it('starts after the migration and the bucket, with Redis healthy', () => {
      const dependsOn = service().depends_on;
      expect(dependsOn.migrate.condition).toBe('service_completed_successfully');
      expect(dependsOn['minio-init'].condition).toBe('service_completed_successfully');
      expect(dependsOn.redis.condition).toBe('service_healthy');
    });

    it('writes only to volumes, as on Kubernetes: read-only root, /tmp a tmpfs, scratch a volume', () => {
      expect(service().read_only).toBe(true);
      expect(service().tmpfs.some((entry: string) => entry.split(':')[0] === '/tmp')).toBe(true);
      const scratch = env().MEDIA_SCRATCH_DIR;
      if (tier.role === 'worker') {
        expect(scratch).toBeDefined();
        expect(service().volumes.map((v: string) => v.split(':')[1])).toContain(scratch);
      } else {
        expect(scratch).toBeUndefined();
      }
    });

    it('gives the drain its time: stop_grace_period above SHUTDOWN_TIMEOUT_MS', () => {
      const seconds = Number(/^(\d+)s$/.exec(service().stop_grace_period)![1]);
      expect(seconds).toBeGreaterThan(loadConfig(env()).SHUTDOWN_TIMEOUT_MS / 1000);
    });
  });

  it('publishes the api port only', () => {
    expect(services.api.ports).toEqual(['3000:3000']);
    expect(services.worker.ports).toBeUndefined();
    expect(loadConfig(environmentOf(services.api)).PORT).toBe(3000);
  });
});
