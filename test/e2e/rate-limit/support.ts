import { Controller, Get, Param, Post, Put, Req } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiExcludeController } from '@nestjs/swagger';
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, Server, Socket } from 'node:net';
import type { Request } from 'express';
import { Anonymous, Gated, OptionalAuth } from '../../../src/common/auth/access.decorators';
import { RequestAuthenticator, RequestPrincipal } from '../../../src/common/auth/request-authenticator';
import { RouteAccess } from '../../../src/common/auth/route-access';
import { AuthenticatedRequest } from '../../../src/common/auth/route-access.guard';
import { unauthorized } from '../../../src/common/errors/api-error';
import { AppConfig } from '../../../src/config/app-config';
import { Clock } from '../../../src/common/clock/clock';
import { bootApp, BootOptions, GENEROUS_RATE_LIMITS } from '../../support/app';
import { RateLimitClass } from '../../../src/infrastructure/rate-limit/rate-limit-class';

/** The real Redis of this machine and CI. */
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A Redis key prefix no other test file or run shares. */
export const uniquePrefix = (name: string) => `plat:test:${name}:${randomBytes(6).toString('hex')}:`;

/**
 * A TCP relay in front of a real Redis, so a test can stop Redis (or make it hang) mid-run the way
 * the service would see it, without reaching into the service: `stop()` closes the port and every
 * connection, `start()` listens on the same port again, `hang()` keeps connections open but holds
 * back Redis's answers until `answer()`.
 */
export class RedisRelay {
  private server: Server | null = null;
  private readonly connections = new Set<{ client: Socket; upstream: Socket }>();
  private port = 0;
  private hanging = false;

  constructor(private readonly target: URL) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = createServer((client) => this.relay(client));
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const { client, upstream } of this.connections) {
      client.destroy();
      upstream.destroy();
    }
    this.connections.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  hang(): void {
    this.hanging = true;
    for (const { upstream } of this.connections) upstream.pause();
  }

  answer(): void {
    this.hanging = false;
    for (const { upstream } of this.connections) upstream.resume();
  }

  private relay(client: Socket): void {
    const upstream = createConnection(Number(this.target.port || 6379), this.target.hostname);
    const connection = { client, upstream };
    this.connections.add(connection);
    if (this.hanging) upstream.pause();
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      this.connections.delete(connection);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }
}

/** Time that moves only when a test says so. */
export class ManualClock extends Clock {
  constructor(private current = Date.UTC(2030, 0, 1)) {
    super();
  }

  override now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }
}

/**
 * THE ONE override of our own code in these tests: the protocol layer that verifies request proofs
 * does not exist yet, and `RequestAuthenticator` is its seam. `Authorization: PLAT grant:<id>`
 * verifies as grant `<id>`; any other Authorization header fails verification (401), like a bad
 * proof would. Replace with real signed proofs once the protocol layer lands.
 */
export class StandInAuthenticator extends RequestAuthenticator {
  override async authenticate(
    request: Request,
    access: RouteAccess,
    beforeCommit?: (principal: RequestPrincipal) => void | Promise<void>,
  ): Promise<RequestPrincipal | null> {
    const header = request.headers.authorization;
    if (header === undefined && access.kind === 'optional') return null;
    const grant = /^PLAT grant:([\w:.-]+)$/.exec(header ?? '')?.[1];
    if (!grant) throw unauthorized('Request proof does not verify');
    const principal = { did: `did:plat:${grant}`, grant };
    await beforeCommit?.(principal);
    return principal;
  }
}

export const proofFor = (grant: string) => `PLAT grant:${grant}`;

/**
 * Routes that verify proofs, which the service does not have yet. Their paths have the shapes of the
 * real upvote and post routes so the per-grant class budgets apply; once those real routes exist
 * they take precedence, and the tests only assume "not 429" below a limit.
 */
@ApiExcludeController()
@Controller()
export class FixtureController {
  @Get('v1/__rate-limit/optional')
  @RateLimitClass('read')
  @OptionalAuth('read:posts')
  optional(@Req() request: AuthenticatedRequest) {
    return { grant: request.principal?.grant ?? null };
  }

  @Get('v1/__rate-limit/gated')
  @RateLimitClass('read')
  @Gated([])
  gatedRead(@Req() request: AuthenticatedRequest) {
    return { grant: request.principal?.grant };
  }

  @Post('v1/__rate-limit/gated')
  @RateLimitClass('ordinary')
  @Gated([])
  gatedWrite(@Req() request: AuthenticatedRequest) {
    return { grant: request.principal?.grant };
  }

  @Get('v1/__rate-limit/anonymous')
  @RateLimitClass('read')
  @Anonymous()
  anonymous() {
    return { ok: true };
  }

  @Put('v1/spaces/:space/posts/:post/upvote')
  @RateLimitClass('action')
  @Gated(['write:upvotes'])
  upvote(@Param('post') _post: string) {
    return { upvoted: true, upvoteCount: 1 };
  }

  @Post('v1/spaces/:space/posts')
  @RateLimitClass('create')
  @Gated(['write:posts'])
  createPost(@Param('space') _space: string) {
    return { created: true };
  }
}

export interface LimitedApp {
  app: NestExpressApplication;
  config: AppConfig;
  http: ReturnType<NestExpressApplication['getHttpServer']>;
  clock: ManualClock;
  databaseUrl: string;
  close(): Promise<void>;
}

export interface LimitedBootOptions {
  env?: Record<string, string | undefined>;
  clock?: ManualClock;
  /** Share a database between apps of one file (several replicas, or just faster boots). */
  databaseUrl?: string;
  /** Further outside services replaced (a captured log). */
  override?: BootOptions['override'];
}

/** The real AppModule plus the fixture routes, with the stand-in authenticator and a manual clock. */
export async function bootLimitedApp(options: LimitedBootOptions = {}): Promise<LimitedApp> {
  const clock = options.clock ?? new ManualClock();
  // The api-spec defaults apply unless a test sets a number (bootApp raises them for other suites).
  const defaults = Object.fromEntries(Object.keys(GENEROUS_RATE_LIMITS).map((key) => [key, undefined]));
  const booted = await bootApp({
    env: { ...defaults, ...options.env } as Record<string, string>,
    databaseUrl: options.databaseUrl,
    controllers: [FixtureController],
    override: (builder) => {
      const standIns = builder
        .overrideProvider(RequestAuthenticator)
        .useClass(StandInAuthenticator)
        .overrideProvider(Clock)
        .useValue(clock);
      return options.override ? options.override(standIns) : standIns;
    },
  });
  return { ...booted, clock };
}
