import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ProfileLinkDto } from '../../common/dto/profile-link.dto';
import { formatEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { KeysetPage, paginateKeyset } from '../../common/pagination/keyset';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { SpaceMembership } from '../entities/space-membership.entity';
import { Space } from '../entities/space.entity';
import { toProfileLinkDto } from '../../common/dto/profile-link.dto';
import { memberCountSummary } from './public-space-records.presenter';
import { SpaceAccess } from './space-access.service';
import { SpaceDirectory } from './space-directory.service';
import { MemberRole } from '../domain/space-rules';

/** One active membership of a live space (api-spec.md "Membership records"). */
export interface ActiveMembership {
  space: Space;
  role: MemberRole;
  joinedAt: Date;
}

/** The `space` block of a space membership item. */
export interface MembershipSpaceBlock {
  id: string;
  did: string;
  domain: string;
  displayName: string | null;
  description: string | null;
  avatarUrl: string | null;
  links: ProfileLinkDto[];
  memberCountSummary: string;
}

/**
 * Read-side access to a person's space memberships for the memberships module (GET /v1/memberships
 * and friends) and the admin check of the group routes. Only active members of live spaces count;
 * people who left, were removed or banned, only invited, and deleted spaces never do.
 */
@Injectable()
export class SpaceMembershipReads {
  constructor(
    @InjectRepository(SpaceMembership) private readonly memberships: Repository<SpaceMembership>,
    private readonly directory: SpaceDirectory,
    private readonly access: SpaceAccess,
    private readonly cursors: CursorCodec,
  ) {}

  /** The person's active memberships of live spaces, `joinedAt` ascending then space id. */
  async listActive(
    did: string,
    roles: readonly MemberRole[] | null,
    page: PaginationQueryDto,
  ): Promise<KeysetPage<ActiveMembership>> {
    const result = await paginateKeyset(this.activeOf(did, roles), {
      listing: 'memberships',
      columns: [
        { expression: 'membership.joinedAt', direction: 'ASC' },
        { expression: 'membership.spaceId', direction: 'ASC' },
      ],
      keyOf: (row: SpaceMembership) => [row.joinedAt!.toISOString(), row.spaceId],
      page,
      cursors: this.cursors,
    });
    return { ...result, rows: result.rows.map(toActive) };
  }

  /** How many rows `listActive` walks through with the same filter. */
  countActive(did: string, roles: readonly MemberRole[] | null): Promise<number> {
    return this.activeOf(did, roles).getCount();
  }

  /** The person's active membership of the space `{space}` names (subdomain, id or DID), else null. */
  async activeIn(did: string, reference: string): Promise<ActiveMembership | null> {
    const space = await this.directory.findByReference(reference);
    if (!space) return null;
    const membership = await this.directory.membershipOf(space.id, did);
    if (membership?.status !== 'active' || !membership.joinedAt) return null;
    return { space, role: membership.role, joinedAt: membership.joinedAt };
  }

  /**
   * The live space `{id}` names for an admin of it, as on the other admin routes (design.md §9): a
   * non-admin who reaches the space gets 403, everyone else (and unknown, deleted, malformed ids) the 404.
   */
  async adminSpace(pathId: string, did: string): Promise<Space> {
    return (await this.access.resolveAdmin(pathId, did)).space;
  }

  /**
   * A SQL condition true when `didExpression` is an active member of the live space
   * `spaceIdExpression` (and, with `rolesParameter`, holds one of the roles bound to that
   * parameter name). For queries of other modules that must follow the membership rule in one query.
   */
  activeMembershipCondition(
    spaceIdExpression: string,
    didExpression: string,
    rolesParameter?: string,
  ): string {
    const roles = rolesParameter ? ` AND "sm"."role" IN (:...${rolesParameter})` : '';
    return (
      `EXISTS (SELECT 1 FROM "space_memberships" "sm" INNER JOIN "spaces" "sp" ON "sp"."id" = "sm"."space_id"` +
      ` AND "sp"."deleted_at" IS NULL WHERE "sm"."space_id" = ${spaceIdExpression}` +
      ` AND "sm"."member_did" = ${didExpression} AND "sm"."status" = 'active'${roles})`
    );
  }

  /** The roles of the person's active memberships, by space uuid, among `spaceIds` (live spaces only). */
  async rolesIn(did: string, spaceIds: string[]): Promise<Map<string, MemberRole>> {
    if (spaceIds.length === 0) return new Map();
    const rows = await this.activeOf(did, null)
      .andWhere('membership.spaceId IN (:...spaceIds)', { spaceIds })
      .getMany();
    return new Map(rows.map((row) => [row.spaceId, row.role]));
  }

  /** The `space` block of a membership item: public identity and a worded member count. */
  spaceBlock(space: Space, avatarUrl: string | null): MembershipSpaceBlock {
    return {
      id: formatEntityId('space', space.id),
      did: space.did,
      domain: space.domain,
      displayName: space.displayName,
      description: space.description,
      avatarUrl,
      links: space.links.map(toProfileLinkDto),
      memberCountSummary: memberCountSummary(space),
    };
  }

  private activeOf(did: string, roles: readonly MemberRole[] | null) {
    const query = this.memberships
      .createQueryBuilder('membership')
      .innerJoinAndSelect('membership.space', 'space', 'space.deletedAt IS NULL')
      .where('membership.memberDid = :did', { did })
      .andWhere(`membership.status = 'active'`)
      .andWhere('membership.joinedAt IS NOT NULL');
    if (roles && roles.length > 0) query.andWhere('membership.role IN (:...roles)', { roles: [...roles] });
    return query;
  }
}

const toActive = (row: SpaceMembership): ActiveMembership => ({
  space: row.space!,
  role: row.role,
  joinedAt: row.joinedAt!,
});
