import { Module } from '@nestjs/common';
import { MediaRecordsModule } from '../media';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { SpacesModule } from '../spaces';
import { SpaceApplicationsController } from './controllers/space-applications.controller';
import { SpaceInvitesController } from './controllers/space-invites.controller';
import { SpaceMembersController } from './controllers/space-members.controller';
import { SpacesController } from './controllers/spaces.controller';
import { SpaceApplication } from './entities/space-application.entity';
import { SpaceInvite } from './entities/space-invite.entity';
import { MembershipFollower } from './membership-follower';
import { SpaceApplicationsService } from './space-applications.service';
import { SpaceInvitesService } from './space-invites.service';

/**
 * The legacy space-management namespace (`/spaces/...`, `/applications/...`): create, config,
 * domains, invites, joins, applications, members, roles, bans, viewer, status. It owns invites and
 * applications; space rows and memberships are the spaces module's, reached through its services
 * (inside this module's transactions where a write spans both). Publishes the view
 * `space_applicants` for the spaces module's reachability rule.
 */
@Module({
  imports: [
    DomainEventsModule,
    PaginationModule,
    SpacesModule,
    MediaRecordsModule,
    TypeOrmModule.forFeature([SpaceInvite, SpaceApplication]),
  ],
  // Controllers with literal path segments first (spaces/invites/:code, spaces/join/:code).
  controllers: [
    SpaceInvitesController,
    SpacesController,
    SpaceMembersController,
    SpaceApplicationsController,
  ],
  providers: [SpaceInvitesService, SpaceApplicationsService, MembershipFollower],
})
export class LegacySpacesModule {}
