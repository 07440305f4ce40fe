import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Anonymous } from '../../common/auth/access.decorators';
import { PoolLiveness } from '../database/pool-liveness';
import { DependencyCheck } from './dependency-check';
import { ShutdownState } from './shutdown-state';
import { RateLimitClass } from '../rate-limit/rate-limit-class';

/**
 * The probes answer for this replica alone; the state of PostgreSQL and Redis, which every replica
 * shares, is in `/health/dependencies` (docs/decisions/0119-readiness-without-shared-dependencies.md).
 */
@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly shutdown: ShutdownState,
    private readonly pool: PoolLiveness,
    private readonly dependencies: DependencyCheck,
  ) {}

  /** The process is up, its event loop answers and its connection pool is not wedged. */
  @Get('live')
  @RateLimitClass('exempt')
  @Anonymous()
  async live() {
    if (await this.pool.wedged()) throw new ServiceUnavailableException('database pool wedged');
    return { status: 'ok' };
  }

  /**
   * Ready for traffic: booted (the route exists only then), not draining, its pool not wedged.
   * A database or Redis that is down for every replica keeps it 200: each replica then answers the
   * JSON 503 itself, rather than the load balancer answering its own page for all of them.
   */
  @Get('ready')
  @RateLimitClass('exempt')
  @Anonymous()
  async ready() {
    if (this.shutdown.draining) throw new ServiceUnavailableException('draining');
    if (await this.pool.wedged()) throw new ServiceUnavailableException('database pool wedged');
    return { status: 'ok' };
  }

  /** PostgreSQL and Redis as this replica reaches them; always 200, the state is in the body. */
  @Get('dependencies')
  @RateLimitClass('exempt')
  @Anonymous()
  dependencyReport() {
    return this.dependencies.report();
  }
}
