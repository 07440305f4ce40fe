import { Module } from '@nestjs/common';
import { GroupMembershipErasureService } from './services/group-membership-erasure.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { MediaRecordsModule } from '../media';
import { RelayModule } from '../protocol';
import { SpacesModule } from '../spaces';
import { GroupMembersController } from './controllers/group-members.controller';
import { GroupMembershipController } from './controllers/group-membership.controller';
import { GroupMembershipsController } from './controllers/group-memberships.controller';
import { GroupsController } from './controllers/groups.controller';
import { SpaceMembershipController } from './controllers/space-membership.controller';
import { SpaceMembershipsController } from './controllers/space-memberships.controller';
import { GroupMembership } from './entities/group-membership.entity';
import { SpaceGroup } from './entities/space-group.entity';
import { GroupMembershipSubscriber } from './events/group-membership.subscriber';
import { MembershipsRepository } from './memberships.repository';
import { GroupMembershipLookupService } from './services/group-membership-lookup.service';
import { GroupsService } from './services/groups.service';
import { MembershipsService } from './services/memberships.service';

/**
 * Groups of spaces (design.md §9 administration; each group has its own DID) and the
 * credential-gated membership reads (/v1/memberships, /v1/membership/{space},
 * /v1/group-memberships, /v1/group-membership/{group}). Space memberships are read through
 * SpacesModule's SpaceMembershipReadsService; OriginIdentities comes from the global relay module.
 * Group memberships follow the space membership's events (GroupMembershipSubscriber).
 */
@Module({
  imports: [
    DomainEventsModule,
    PaginationModule,
    RelayModule,
    SpacesModule,
    MediaRecordsModule,
    TypeOrmModule.forFeature([SpaceGroup, GroupMembership]),
  ],
  controllers: [
    GroupsController,
    GroupMembersController,
    SpaceMembershipsController,
    SpaceMembershipController,
    GroupMembershipsController,
    GroupMembershipController,
  ],
  providers: [
    MembershipsRepository,
    GroupsService,
    MembershipsService,
    GroupMembershipLookupService,
    GroupMembershipSubscriber,
    GroupMembershipErasureService,
  ],
  exports: [GroupMembershipLookupService, GroupMembershipErasureService],
})
export class MembershipsModule {}
