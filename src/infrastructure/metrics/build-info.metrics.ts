import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { packageVersion } from '../runtime/build-info';
import { Metrics } from './metrics';

/** `plat_build_info{version,commit} 1`: which code each pod runs (a rollout in progress shows two). */
@Injectable()
export class BuildInfoMetrics implements OnModuleInit {
  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    const labels = { version: packageVersion(), commit: this.config.PLAT_COMMIT ?? 'unknown' };
    this.metrics.gauge(
      'plat_build_info',
      'The running version and commit (always 1)',
      ['version', 'commit'],
      (g) => g.set(labels, 1),
    );
  }
}
