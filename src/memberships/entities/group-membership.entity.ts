import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SpaceGroup } from './space-group.entity';

/**
 * One person in one group. The row ends with the person's space membership (GroupMembershipFollower,
 * docs/decisions/0104-group-rows-end-with-membership.md); reads still count it only while the person is an
 * active member of the live space (api-spec.md "Membership records"). `spaceId` repeats the group's
 * space so reads can apply that rule without a join.
 */
@Entity({ name: 'group_memberships' })
@Index('idx_group_memberships_by_member', ['memberDid', 'joinedAt', 'groupId'])
export class GroupMembership {
  @PrimaryColumn({ name: 'group_id', type: 'uuid' })
  groupId: string;

  @PrimaryColumn({ name: 'member_did', type: 'varchar', length: 64 })
  memberDid: string;

  @ManyToOne(() => SpaceGroup, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id' })
  group?: SpaceGroup;

  @Column({ name: 'space_id', type: 'uuid' })
  spaceId: string;

  @Column({ name: 'joined_at', type: 'timestamptz', precision: 3 })
  joinedAt: Date;
}
