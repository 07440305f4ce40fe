import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DomainEvents } from '../infrastructure/events/domain-events.service';
import { MemberBanned, MemberJoined, MembershipEnded, SpaceDeleted } from '../spaces';
import { GroupMembership } from './entities/group-membership.entity';

/**
 * Group memberships end with the space membership, inside the membership write's transaction
 * (docs/decisions/0104-group-rows-end-with-membership.md): leaving, being removed or banned takes the
 * person out of every group of the space, and a deleted space's groups lose all their members, so
 * a rejoin (open join, invite, approval, after an unban) starts with no groups. A rollback of the
 * membership write keeps the groups.
 */
@Injectable()
export class GroupMembershipFollower implements OnModuleInit {
  constructor(private readonly events: DomainEvents) {}

  onModuleInit(): void {
    this.events.withinTransaction(MembershipEnded, (event, manager) =>
      this.removeFromGroups(manager, event.spaceId, event.memberDid),
    );
    this.events.withinTransaction(MemberBanned, (event, manager) =>
      this.removeFromGroups(manager, event.spaceId, event.memberDid),
    );
    // A group row added while the membership was ending (the group write checks the membership
    // before its insert, without the space's row lock) must not carry over into the next membership.
    this.events.withinTransaction(MemberJoined, (event, manager) =>
      this.removeFromGroups(manager, event.spaceId, event.memberDid),
    );
    this.events.withinTransaction(SpaceDeleted, (event, manager) => this.emptyGroups(manager, event.spaceId));
  }

  private async removeFromGroups(manager: EntityManager, spaceId: string, did: string): Promise<void> {
    await manager.getRepository(GroupMembership).delete({ spaceId, memberDid: did });
  }

  /** Every membership of the space's groups, found through the groups (indexed by space). */
  private async emptyGroups(manager: EntityManager, spaceId: string): Promise<void> {
    await manager.query(
      'DELETE FROM "group_memberships" WHERE "group_id" IN (SELECT "id" FROM "space_groups" WHERE "space_id" = $1)',
      [spaceId],
    );
  }
}
