import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { DependencyCheck } from './dependency-check';
import { DependencyMetrics } from './dependency.metrics';
import { HealthController } from './health.controller';
import { ShutdownState } from './shutdown-state';

@Module({
  imports: [MetricsModule],
  controllers: [HealthController],
  providers: [ShutdownState, DependencyCheck, DependencyMetrics],
  exports: [ShutdownState],
})
export class HealthModule {}
