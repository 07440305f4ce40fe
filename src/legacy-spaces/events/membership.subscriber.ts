import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { MemberBanned, MemberRoleChanged, MembershipEnded, SpaceDeleted } from '../../spaces';
import { LegacySpacesRepository } from '../legacy-spaces.repository';

/**
 * Keeps invites and applications in step with memberships, inside the membership write's
 * transaction: someone who stops being an admin (left, removed, banned, demoted) no longer admits
 * through their invite; a ban rejects the person's pending applications; a deleted space's invites
 * all stop admitting.
 */
@Injectable()
export class MembershipSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly clock: Clock,
    private readonly legacy: LegacySpacesRepository,
  ) {}

  onModuleInit(): void {
    this.events.withinTransaction(MembershipEnded, (event, manager) =>
      this.legacy.revokeInvitesOf(event.spaceId, event.memberDid, this.clock.now(), manager),
    );
    this.events.withinTransaction(MemberRoleChanged, async (event, manager) => {
      if (event.role === 'member')
        await this.legacy.revokeInvitesOf(event.spaceId, event.memberDid, this.clock.now(), manager);
    });
    this.events.withinTransaction(MemberBanned, async (event, manager) => {
      await this.legacy.revokeInvitesOf(event.spaceId, event.memberDid, this.clock.now(), manager);
      await this.legacy.rejectPending(event.spaceId, event.memberDid, this.clock.now(), event.byDid, manager);
    });
    this.events.withinTransaction(SpaceDeleted, (event, manager) =>
      this.legacy.revokeInvitesOfSpace(event.spaceId, this.clock.now(), manager),
    );
  }
}
