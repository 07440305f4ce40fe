import { Injectable, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { MemberBanned, MemberJoined, MembershipEnded, SpaceDeleted } from '../../spaces';
import { MembershipsRepository } from '../memberships.repository';

/**
 * Group memberships end with the space membership, inside the membership write's transaction
 * (docs/decisions/0104-group-rows-end-with-membership.md): leaving, being removed or banned takes the
 * person out of every group of the space, and a deleted space's groups lose all their members, so
 * a rejoin (open join, invite, approval, after an unban) starts with no groups. A rollback of the
 * membership write keeps the groups.
 */
@Injectable()
export class GroupMembershipSubscriber implements OnModuleInit {
  constructor(
    private readonly events: DomainEvents,
    private readonly memberships: MembershipsRepository,
  ) {}

  onModuleInit(): void {
    this.events.withinTransaction(MembershipEnded, (event, manager) =>
      this.memberships.removeFromGroups(event.spaceId, event.memberDid, manager),
    );
    this.events.withinTransaction(MemberBanned, (event, manager) =>
      this.memberships.removeFromGroups(event.spaceId, event.memberDid, manager),
    );
    // A group row added while the membership was ending (the group write checks the membership
    // before its insert, without the space's row lock) must not carry over into the next membership.
    this.events.withinTransaction(MemberJoined, (event, manager) =>
      this.memberships.removeFromGroups(event.spaceId, event.memberDid, manager),
    );
    this.events.withinTransaction(SpaceDeleted, (event, manager) =>
      this.memberships.emptyGroups(event.spaceId, manager),
    );
  }
}
