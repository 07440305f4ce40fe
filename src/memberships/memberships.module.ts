import { Module } from '@nestjs/common';
import { MediaRecordsModule } from '../media';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SpacesModule } from '../spaces';
import { GroupMembership } from './entities/group-membership.entity';
import { SpaceGroup } from './entities/space-group.entity';
import { GroupCounts } from './group-counts';
import { GroupMembershipFollower } from './group-membership-follower';
import { GroupMembershipLookup } from './group-membership-lookup';
import { GroupsController } from './controllers/groups.controller';
import { GroupsService } from './groups.service';
import { MembershipsController } from './controllers/memberships.controller';
import { MembershipsService } from './memberships.service';
import { PaginationModule } from '../common/pagination/pagination.module';
import { RelayModule } from '../protocol';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';

/**
 * Groups of spaces (design.md §9 administration; each group has its own DID) and the
 * credential-gated membership reads (/v1/memberships, /v1/membership/{space},
 * /v1/group-memberships, /v1/group-membership/{group}). Space memberships are read through
 * SpacesModule's SpaceMembershipReads; OriginIdentities comes from the global relay module.
 * Group memberships follow the space membership's events (GroupMembershipFollower).
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
  controllers: [GroupsController, MembershipsController],
  providers: [GroupsService, MembershipsService, GroupCounts, GroupMembershipLookup, GroupMembershipFollower],
  exports: [GroupMembershipLookup],
})
export class MembershipsModule {}
