import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JobsModule } from '../../infrastructure/jobs/jobs.module';
import { MetricsModule } from '../../infrastructure/metrics/metrics.module';
import { RelayModule } from '../relay/relay.module';
import { ChainOutboxService } from './services/chain-outbox.service';
import { ChainOutboxMetrics } from './services/chain-outbox.metrics';
import { ChainOutboxSweepSubscriber } from './events/chain-outbox-sweep.subscriber';
import { PublishingRepository } from './publishing.repository';
import { ChainPublication } from './entities/chain-publication.entity';

/** Content chain publication through the outbox (ChainOutboxService) and the job that retries it. */
@Module({
  imports: [TypeOrmModule.forFeature([ChainPublication]), RelayModule, JobsModule, MetricsModule],
  providers: [PublishingRepository, ChainOutboxService, ChainOutboxSweepSubscriber, ChainOutboxMetrics],
  exports: [ChainOutboxService],
})
export class PublishingModule {}
