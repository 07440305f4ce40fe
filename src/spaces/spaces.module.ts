import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { PublicSpacesController } from './controllers/public-spaces.controller';
import { SpaceApplicationsController } from './controllers/space-applications.controller';
import { SpaceInvitesController } from './controllers/space-invites.controller';
import { SpaceMembersController } from './controllers/space-members.controller';
import { SpaceSiteController } from './controllers/space-site.controller';
import { SpacesController } from './controllers/spaces.controller';
import { DomainFetcher, HttpsDomainFetcher } from './domain-fetcher';
import { SpaceApplication } from './entities/space-application.entity';
import { SpaceInvite } from './entities/space-invite.entity';
import { SpaceMembership } from './entities/space-membership.entity';
import { SpaceMembershipReads } from './space-membership-reads';
import { SpacePage } from './entities/space-page.entity';
import { SpaceTopic } from './entities/space-topic.entity';
import { Space } from './entities/space.entity';
import { MembershipWrites } from './membership-writes';
import { SpaceAccess } from './space-access';
import { SpaceApplicationsService } from './space-applications.service';
import { SpaceGrantAccess } from './grant-access.service';
import { SpaceDirectory } from './space-directory';
import { SpaceInvitesService } from './space-invites.service';
import { SpaceMembersService } from './space-members.service';
import { PublicSpacesService } from './public-spaces.service';
import { SpaceCounters } from './space-counters';
import { SpacePagesService } from './space-pages.service';
import { SpaceProfileChain } from './space-profile-chain';
import { SpaceSiteService } from './space-site.service';
import { SpaceTopicsService } from './space-topics.service';
import { SpaceVisibility } from './space-visibility';
import { SpacesService } from './spaces.service';
import { PublicSpaceProbe } from '../common/auth/public-space-probe';
import { PaginationModule } from '../common/pagination/pagination.module';
import { RelayModule } from '../protocol/relay/relay.module';

/**
 * Spaces, memberships, invites and applications: the legacy space management routes, the public
 * space reads (/v1/spaces: discovery, profile, topics, pages), the site administration (design.md
 * §9: site, topics, pages, domain verification), and the lookups (SpaceDirectory) that posts and
 * events build on. OriginIdentities and ContentChainSync (the space identity and profile chains)
 * come from the protocol layer; other modules register their counts with SpaceCounters.
 */
@Module({
  imports: [
    DomainEventsModule,
    PaginationModule,
    RelayModule,
    TypeOrmModule.forFeature([Space, SpaceMembership, SpaceInvite, SpaceApplication, SpaceTopic, SpacePage]),
  ],
  // Controllers with literal path segments first (spaces/invites/:code, spaces/join/:code).
  controllers: [
    SpaceInvitesController,
    SpacesController,
    SpaceMembersController,
    SpaceApplicationsController,
    SpaceSiteController,
    PublicSpacesController,
  ],
  providers: [
    SpaceDirectory,
    SpaceAccess,
    MembershipWrites,
    SpacesService,
    SpaceInvitesService,
    SpaceMembersService,
    SpaceApplicationsService,
    SpaceGrantAccess,
    SpaceCounters,
    SpaceProfileChain,
    PublicSpacesService,
    SpaceTopicsService,
    SpacePagesService,
    SpaceSiteService,
    SpaceMembershipReads,
    SpaceVisibility,
    { provide: DomainFetcher, useClass: HttpsDomainFetcher },
    { provide: PublicSpaceProbe, useExisting: SpaceDirectory },
  ],
  exports: [
    SpaceDirectory,
    SpacesService,
    SpaceGrantAccess,
    SpaceCounters,
    SpaceMembershipReads,
    SpaceVisibility,
  ],
})
export class SpacesModule {}
