import { Module } from '@nestjs/common';
import { ApplicationErasureService } from './services/application-erasure.service';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { MediaRecordsModule } from '../media';
import { SpacesModule } from '../spaces';
import { ApplicationSettingsController } from './controllers/application-settings.controller';
import { ApplicationsController } from './controllers/applications.controller';
import { InviteJoinsController } from './controllers/invite-joins.controller';
import { InvitePreviewsController } from './controllers/invite-previews.controller';
import { SpaceApplicationsController } from './controllers/space-applications.controller';
import { SpaceBansController } from './controllers/space-bans.controller';
import { SpaceInvitesController } from './controllers/space-invites.controller';
import { SpaceMembersController } from './controllers/space-members.controller';
import { SpaceMembershipController } from './controllers/space-membership.controller';
import { SpacesController } from './controllers/spaces.controller';
import { SpaceApplication } from './entities/space-application.entity';
import { SpaceInvite } from './entities/space-invite.entity';
import { MembershipSubscriber } from './events/membership.subscriber';
import { LegacySpacesRepository } from './legacy-spaces.repository';
import { SpaceApplicationsService } from './services/space-applications.service';
import { SpaceInvitesService } from './services/space-invites.service';

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
    InvitePreviewsController,
    InviteJoinsController,
    SpaceInvitesController,
    SpacesController,
    SpaceMembershipController,
    SpaceMembersController,
    SpaceBansController,
    SpaceApplicationsController,
    ApplicationSettingsController,
    ApplicationsController,
  ],
  providers: [
    LegacySpacesRepository,
    SpaceInvitesService,
    SpaceApplicationsService,
    MembershipSubscriber,
    ApplicationErasureService,
  ],
  exports: [ApplicationErasureService],
})
export class LegacySpacesModule {}
