import { AccountDeactivationService } from './services/account-deactivation.service';
import { ChainExportService } from './services/chain-export.service';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChainGenesis } from '../publishing/domain/chain-genesis';
import { ContentChainSyncService } from '../publishing/services/content-chain-sync.service';
import { ContentPublisher } from '../publishing/domain/content-publisher';
import { OriginIdentities } from '../publishing/domain/origin-identities';
import { RELAY_ENTITIES } from './entities';
import { IdentityCacheBusService } from './services/identity-cache-bus.service';
import { IdentityCacheEpochRepository } from './repositories/identity-cache-epoch.repository';
import { RelayChainsRepository } from './repositories/relay-chains.repository';
import { RelayOperationsRepository } from './repositories/relay-operations.repository';
import { RelayOriginRepository } from './repositories/relay-origin.repository';
import { RelayPendingRepository } from './repositories/relay-pending.repository';
import { RelayRevocationsRepository } from './repositories/relay-revocations.repository';
import { IdentityStateService } from './services/identity-state.service';
import { OriginChainGenesisService } from './services/origin-chain-genesis.service';
import { OriginIdentityService } from './services/origin-identity.service';
import { ProtocolDiscoveryController } from './controllers/protocol-discovery.controller';
import { RelayBlobsController } from './controllers/relay-blobs.controller';
import { RelayContentController } from './controllers/relay-content.controller';
import { RelayCountersignaturesController } from './controllers/relay-countersignatures.controller';
import { RelayIdentitiesController } from './controllers/relay-identities.controller';
import { RelayIndexController } from './controllers/relay-index.controller';
import { RelayLogController } from './controllers/relay-log.controller';
import { RelayOperationsController } from './controllers/relay-operations.controller';
import { RelayRevocationsController } from './controllers/relay-revocations.controller';
import { RelayWellKnownController } from './controllers/relay-well-known.controller';
import { RelayIngestService } from './services/relay-ingest.service';
import { RelayApiService } from './services/relay-api.service';
import { RevocationService } from './services/revocation.service';
import { PaginationModule } from '../../common/pagination/pagination.module';
import { RateLimitModule } from '../../infrastructure/rate-limit/rate-limit.module';
import { DomainEventsModule } from '../../infrastructure/events/domain-events.module';

/**
 * The embedded relay (design.md §1) and the services other modules build on: identity state (cached,
 * invalidated on ingest), revocations, ingest, and the service's origin identity, for the modules
 * that import it. The origin identity also answers the publishing ports (OriginIdentities,
 * ContentPublisher); ChainGenesis starts a content chain inside the transaction of its content;
 * ContentChainSyncService keeps other modules' content chains in line with their content.
 */
@Module({
  imports: [TypeOrmModule.forFeature(RELAY_ENTITIES), PaginationModule, RateLimitModule, DomainEventsModule],
  controllers: [
    RelayWellKnownController,
    RelayOperationsController,
    RelayLogController,
    RelayCountersignaturesController,
    RelayIdentitiesController,
    RelayContentController,
    RelayBlobsController,
    RelayIndexController,
    RelayRevocationsController,
    ProtocolDiscoveryController,
  ],
  providers: [
    AccountDeactivationService,
    ChainExportService,
    RelayOperationsRepository,
    RelayChainsRepository,
    RelayPendingRepository,
    RelayRevocationsRepository,
    RelayOriginRepository,
    IdentityCacheEpochRepository,
    IdentityCacheBusService,
    IdentityStateService,
    RevocationService,
    RelayIngestService,
    OriginIdentityService,
    RelayApiService,
    { provide: OriginIdentities, useExisting: OriginIdentityService },
    { provide: ContentPublisher, useExisting: OriginIdentityService },
    OriginChainGenesisService,
    { provide: ChainGenesis, useExisting: OriginChainGenesisService },
    ContentChainSyncService,
  ],
  exports: [
    AccountDeactivationService,
    ChainExportService,
    IdentityCacheBusService,
    IdentityStateService,
    RevocationService,
    RelayIngestService,
    OriginIdentityService,
    OriginIdentities,
    ContentPublisher,
    ChainGenesis,
    ContentChainSyncService,
  ],
})
export class RelayModule {}
