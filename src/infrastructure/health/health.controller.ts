import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Anonymous } from '../../common/auth/access.decorators';
import { PoolLiveness } from '../database/pool-liveness';
import { ShutdownState } from './shutdown-state';

@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly shutdown: ShutdownState,
    private readonly pool: PoolLiveness,
  ) {}

  /** The process is up, its event loop answers and its connection pool is not wedged. */
  @Get('live')
  @Anonymous()
  async live() {
    if (await this.pool.wedged()) throw new ServiceUnavailableException('database pool wedged');
    return { status: 'ok' };
  }

  /** Ready for traffic: the database answers and the process is not draining. */
  @Get('ready')
  @Anonymous()
  ready() {
    if (this.shutdown.draining) throw new ServiceUnavailableException('draining');
    return this.health.check([() => this.database.pingCheck('database', { timeout: 1000 })]);
  }
}
