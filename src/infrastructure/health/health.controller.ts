import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { Anonymous } from '../../common/auth/access.decorators';
import { ShutdownState } from './shutdown-state';

@ApiExcludeController()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly shutdown: ShutdownState,
  ) {}

  /** The process is up and its event loop answers. */
  @Get('live')
  @Anonymous()
  live() {
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
