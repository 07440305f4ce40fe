import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, IsNull } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { DomainEvents } from '../infrastructure/events/domain-events.service';
import { MemberBanned, MemberRoleChanged, MembershipEnded, SpaceDeleted } from '../spaces';
import { SpaceApplication } from './entities/space-application.entity';
import { SpaceInvite } from './entities/space-invite.entity';

/**
 * Keeps invites and applications in step with memberships, inside the membership write's
 * transaction: someone who stops being an admin (left, removed, banned, demoted) no longer admits
 * through their invite; a ban rejects the person's pending applications; a deleted space's invites
 * all stop admitting.
 */
@Injectable()
export class MembershipFollower implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.events.withinTransaction(MembershipEnded, (event, manager) =>
      this.revokeInvitesOf(manager, event.spaceId, event.memberDid),
    );
    this.events.withinTransaction(MemberRoleChanged, async (event, manager) => {
      if (event.role === 'member') await this.revokeInvitesOf(manager, event.spaceId, event.memberDid);
    });
    this.events.withinTransaction(MemberBanned, async (event, manager) => {
      await this.revokeInvitesOf(manager, event.spaceId, event.memberDid);
      await manager
        .getRepository(SpaceApplication)
        .update(
          { spaceId: event.spaceId, applicantDid: event.memberDid, status: 'pending' },
          { status: 'rejected', decidedAt: this.clock.now(), decidedByDid: event.byDid },
        );
    });
    this.events.withinTransaction(SpaceDeleted, async (event, manager) => {
      await manager
        .getRepository(SpaceInvite)
        .update({ spaceId: event.spaceId, revokedAt: IsNull() }, { revokedAt: this.clock.now() });
    });
  }

  /** Revokes the person's current invite in the space. */
  async revokeInvitesOf(manager: EntityManager, spaceId: string, did: string): Promise<void> {
    await manager
      .getRepository(SpaceInvite)
      .update({ spaceId, creatorDid: did, revokedAt: IsNull() }, { revokedAt: this.clock.now() });
  }
}
