import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { PublicSpacePagesController } from './controllers/public-space-pages.controller';
import { PublicSpaceTopicsController } from './controllers/public-space-topics.controller';
import { PublicSpacesController } from './controllers/public-spaces.controller';
import { SpaceDomainVerificationController } from './controllers/space-domain-verification.controller';
import { SpacePagesController } from './controllers/space-pages.controller';
import { SpaceSiteController } from './controllers/space-site.controller';
import { SpaceTopicsController } from './controllers/space-topics.controller';
import { OutboundModule } from '../infrastructure/outbound/outbound.module';
import { DomainFetcherService, HttpsDomainFetcherService } from './services/domain-fetcher.service';
import { SpaceMembership } from './entities/space-membership.entity';
import { SpaceErasedBan } from './entities/space-erased-ban.entity';
import { SpaceMembershipReadsService } from './services/space-membership-reads.service';
import { SpacePage } from './entities/space-page.entity';
import { SpaceTopic } from './entities/space-topic.entity';
import { Space } from './entities/space.entity';
import { SpaceMembershipsRepository } from './repositories/space-memberships.repository';
import { SpacePagesRepository } from './repositories/space-pages.repository';
import { SpaceTopicsRepository } from './repositories/space-topics.repository';
import { SpacesRepository } from './repositories/spaces.repository';
import { MembershipWritesService } from './services/membership-writes.service';
import { SpaceAccessService } from './services/space-access.service';
import { SpaceGrantAccessService } from './services/space-grant-access.service';
import { SpaceDirectoryService } from './services/space-directory.service';
import { SpaceMembersService } from './services/space-members.service';
import { PublicSpacesService } from './services/public-spaces.service';
import { SpaceCountersService } from './services/space-counters.service';
import { SpaceExportService } from './services/space-export.service';
import { SpacePagesService } from './services/space-pages.service';
import { SpaceProfileChainService } from './services/space-profile-chain.service';
import { SpaceSiteService } from './services/space-site.service';
import { SpaceTopicsService } from './services/space-topics.service';
import { PublishingModule, RelayModule } from '../protocol';
import { SpacesService } from './services/spaces.service';
import { PublicSpaceProbe } from '../common/auth/public-space-probe';
import { PaginationModule } from '../common/pagination/pagination.module';
import { LinkPreviewsModule } from '../link-previews';
import { MediaRecordsModule } from '../media';

/**
 * Spaces and their memberships, topics and pages: the public space reads (/v1/spaces: discovery,
 * profile, topics, pages), the site administration (design.md §9: site, topics, pages, domain
 * verification), and the space and membership API other modules build on (SpaceDirectoryService,
 * SpaceGrantAccessService, SpaceAccessService, MembershipWritesService, SpacesService, SpaceMembersService). The legacy
 * namespace's routes, invites and applications are legacy-spaces'. OriginIdentities and the
 * ChainOutboxService (the space identity and profile chains) come from the protocol layer; other
 * modules register their counts with SpaceCountersService.
 */
@Module({
  imports: [
    DomainEventsModule,
    PaginationModule,
    RelayModule,
    PublishingModule,
    MediaRecordsModule,
    OutboundModule,
    LinkPreviewsModule,
    TypeOrmModule.forFeature([Space, SpaceMembership, SpaceTopic, SpacePage, SpaceErasedBan]),
  ],
  controllers: [
    SpaceSiteController,
    SpaceDomainVerificationController,
    SpaceTopicsController,
    SpacePagesController,
    PublicSpacesController,
    PublicSpaceTopicsController,
    PublicSpacePagesController,
  ],
  providers: [
    SpaceDirectoryService,
    SpaceAccessService,
    MembershipWritesService,
    SpacesService,
    SpaceMembersService,
    SpaceGrantAccessService,
    SpaceCountersService,
    SpaceProfileChainService,
    PublicSpacesService,
    SpaceTopicsService,
    SpacePagesService,
    SpaceSiteService,
    SpaceMembershipReadsService,
    SpaceExportService,
    SpacesRepository,
    SpaceMembershipsRepository,
    SpaceTopicsRepository,
    SpacePagesRepository,
    { provide: DomainFetcherService, useClass: HttpsDomainFetcherService },
    { provide: PublicSpaceProbe, useExisting: SpaceDirectoryService },
  ],
  exports: [
    SpaceDirectoryService,
    SpaceAccessService,
    MembershipWritesService,
    SpacesService,
    SpaceMembersService,
    SpaceGrantAccessService,
    SpaceCountersService,
    SpaceMembershipReadsService,
    SpacePagesService,
    SpaceExportService,
    SpaceSiteService,
    SpaceTopicsService,
  ],
})
export class SpacesModule {}
