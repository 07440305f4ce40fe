import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SpaceMembershipReads } from '../spaces';
import { GroupMembership } from './entities/group-membership.entity';

/**
 * Exact counts over group memberships. A membership counts only while the person is an active
 * member of the group's live space (api-spec.md "Membership records"); the rows of people who
 * left, were removed or banned are deleted with the membership (GroupMembershipFollower).
 */
@Injectable()
export class GroupCounts {
  constructor(
    @InjectRepository(GroupMembership) private readonly members: Repository<GroupMembership>,
    private readonly spaces: SpaceMembershipReads,
  ) {}

  /** Active members per group uuid (groups with none are absent). */
  async memberCounts(groupIds: string[]): Promise<Map<string, number>> {
    if (groupIds.length === 0) return new Map();
    const rows = await this.members
      .createQueryBuilder('gm')
      .select('gm.groupId', 'groupId')
      .addSelect('COUNT(*)::int', 'count')
      .where('gm.groupId IN (:...groupIds)', { groupIds })
      .andWhere(this.spaces.activeMembershipCondition('"gm"."space_id"', '"gm"."member_did"'))
      .groupBy('gm.groupId')
      .getRawMany<{ groupId: string; count: number }>();
    return new Map(rows.map((row) => [row.groupId, Number(row.count)]));
  }

  /** Groups the person is in, per space uuid, among `spaceIds` (the person is taken as active there). */
  async groupCounts(did: string, spaceIds: string[]): Promise<Map<string, number>> {
    if (spaceIds.length === 0) return new Map();
    const rows = await this.members
      .createQueryBuilder('gm')
      .select('gm.spaceId', 'spaceId')
      .addSelect('COUNT(*)::int', 'count')
      .where('gm.memberDid = :did', { did })
      .andWhere('gm.spaceId IN (:...spaceIds)', { spaceIds })
      .groupBy('gm.spaceId')
      .getRawMany<{ spaceId: string; count: number }>();
    return new Map(rows.map((row) => [row.spaceId, Number(row.count)]));
  }
}
