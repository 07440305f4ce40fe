import { ApiProperty, OmitType } from '@nestjs/swagger';
import { SpaceCard } from '../../spaces';
import { PageEnvelope } from '../../common/pagination/page-envelope.dto';
import { GROUP_COLORS, MEMBERSHIP_ROLES } from '../domain/group-rules';

const DID = '^did:plat:[2346789acdefhknrtvz]{31}$';
const SPACE_ID_EXAMPLE = 'space_0190f1a2b3c4d5e6f708192a3b4c5d6e';
const GROUP_ID_EXAMPLE = 'group_0190f1a2b3c4d5e6f708192a3b4c5d6e';
const ROLE_DESCRIPTION = 'open enum: treat unknown values as opaque';

/** The `space` block of a space membership item: the discovery card without domain proof or category. */
export class MembershipSpace extends OmitType(SpaceCard, ['verifiedDomain', 'category'] as const) {}

/** Space membership item (api-spec.md "Membership records"). */
export class SpaceMembershipItem {
  @ApiProperty({ type: MembershipSpace })
  space: MembershipSpace;

  @ApiProperty({ enum: MEMBERSHIP_ROLES, description: ROLE_DESCRIPTION })
  role: string;

  @ApiProperty({ type: 'integer', description: 'groups the person is in inside that space' })
  groupCount: number;

  @ApiProperty({ format: 'date-time' })
  joinedAt: string;
}

export class SpaceMembershipListing extends PageEnvelope {
  @ApiProperty({ type: [SpaceMembershipItem] })
  items: SpaceMembershipItem[];

  @ApiProperty({ type: 'integer', description: 'every membership under the role filter' })
  totalCount: number;
}

/** The `group` block of a group membership item. */
export class MembershipGroup {
  @ApiProperty({ example: GROUP_ID_EXAMPLE })
  id: string;

  @ApiProperty({ pattern: DID, description: 'the group’s own DID' })
  did: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true })
  avatarUrl: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'cyan',
    description: `named palette token (${GROUP_COLORS.join(', ')}; open: tolerate unknown tokens), not a CSS value`,
  })
  color: string | null;

  @ApiProperty({ type: 'integer', description: 'exact number of active members' })
  memberCount: number;

  @ApiProperty({ example: SPACE_ID_EXAMPLE })
  spaceId: string;

  @ApiProperty({ pattern: DID })
  spaceDid: string;
}

/** Group membership item (api-spec.md "Membership records"). */
export class GroupMembershipItem {
  @ApiProperty({ type: MembershipGroup })
  group: MembershipGroup;

  @ApiProperty({
    enum: MEMBERSHIP_ROLES,
    description: `the person’s role in the group’s space; ${ROLE_DESCRIPTION}`,
  })
  role: string;

  @ApiProperty({ format: 'date-time', description: 'when the person was added to the group' })
  joinedAt: string;
}

export class GroupMembershipListing extends PageEnvelope {
  @ApiProperty({ type: [GroupMembershipItem] })
  items: GroupMembershipItem[];

  @ApiProperty({ type: 'integer', description: 'every group membership under the role and space filters' })
  totalCount: number;
}

/** The admins' record of a group (design.md §9). */
export class GroupRecord {
  @ApiProperty({ example: GROUP_ID_EXAMPLE })
  id: string;

  @ApiProperty({ pattern: DID })
  did: string;

  @ApiProperty({ example: SPACE_ID_EXAMPLE })
  spaceId: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'cyan' })
  color: string | null;

  @ApiProperty({ type: 'integer', description: 'exact number of active members' })
  memberCount: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class GroupAdminListing extends PageEnvelope {
  @ApiProperty({ type: [GroupRecord] })
  items: GroupRecord[];
}

/** A person in a group (PUT /spaces/{id}/groups/{groupId}/members/{memberDid}). */
export class GroupMemberRecord {
  @ApiProperty({ example: GROUP_ID_EXAMPLE })
  groupId: string;

  @ApiProperty({ pattern: DID })
  did: string;

  @ApiProperty({ enum: MEMBERSHIP_ROLES, description: 'the person’s role in the space' })
  role: string;

  @ApiProperty({ format: 'date-time' })
  joinedAt: string;
}
