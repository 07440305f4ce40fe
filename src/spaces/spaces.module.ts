import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { PublicSpacesController } from './controllers/public-spaces.controller';
import { SpaceSiteController } from './controllers/space-site.controller';
import { DomainFetcher, HttpsDomainFetcher } from './domain-fetcher';
import { SpaceMembership } from './entities/space-membership.entity';
import { SpaceMembershipReads } from './space-membership-reads';
import { SpacePage } from './entities/space-page.entity';
import { SpaceTopic } from './entities/space-topic.entity';
import { Space } from './entities/space.entity';
import { MembershipWrites } from './membership-writes';
import { SpaceAccess } from './space-access';
import { SpaceGrantAccess } from './grant-access.service';
import { SpaceDirectory } from './space-directory';
import { SpaceMembersService } from './space-members.service';
import { PublicSpacesService } from './public-spaces.service';
import { SpaceCounters } from './space-counters';
import { SpacePagesService } from './space-pages.service';
import { SpaceProfileChain } from './space-profile-chain';
import { SpaceSiteService } from './space-site.service';
import { SpaceTopicsService } from './space-topics.service';
import { PublishingModule, RelayModule } from '../protocol';
import { SpacesService } from './spaces.service';
import { PublicSpaceProbe } from '../common/auth/public-space-probe';
import { PaginationModule } from '../common/pagination/pagination.module';
import { MediaRecordsModule } from '../media';

/**
 * Spaces and their memberships, topics and pages: the public space reads (/v1/spaces: discovery,
 * profile, topics, pages), the site administration (design.md §9: site, topics, pages, domain
 * verification), and the space and membership API other modules build on (SpaceDirectory,
 * SpaceGrantAccess, SpaceAccess, MembershipWrites, SpacesService, SpaceMembersService). The legacy
 * namespace's routes, invites and applications are legacy-spaces'. OriginIdentities and the
 * ChainOutbox (the space identity and profile chains) come from the protocol layer; other
 * modules register their counts with SpaceCounters.
 */
@Module({
  imports: [
    DomainEventsModule,
    PaginationModule,
    RelayModule,
    PublishingModule,
    MediaRecordsModule,
    TypeOrmModule.forFeature([Space, SpaceMembership, SpaceTopic, SpacePage]),
  ],
  controllers: [SpaceSiteController, PublicSpacesController],
  providers: [
    SpaceDirectory,
    SpaceAccess,
    MembershipWrites,
    SpacesService,
    SpaceMembersService,
    SpaceGrantAccess,
    SpaceCounters,
    SpaceProfileChain,
    PublicSpacesService,
    SpaceTopicsService,
    SpacePagesService,
    SpaceSiteService,
    SpaceMembershipReads,
    { provide: DomainFetcher, useClass: HttpsDomainFetcher },
    { provide: PublicSpaceProbe, useExisting: SpaceDirectory },
  ],
  exports: [
    SpaceDirectory,
    SpaceAccess,
    MembershipWrites,
    SpacesService,
    SpaceMembersService,
    SpaceGrantAccess,
    SpaceCounters,
    SpaceMembershipReads,
  ],
})
export class SpacesModule {}
