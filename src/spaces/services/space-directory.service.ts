import { AppConfig } from '../../config/app-config';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PublicSpaceProbe } from '../../common/auth/public-space-probe';
import { parseEntityId } from '../../common/ids/entity-id';
import { SpaceMembership } from '../entities/space-membership.entity';
import { SpaceTopic } from '../entities/space-topic.entity';
import { Space } from '../entities/space.entity';
import { MemberSpace, SpaceView, TopicView } from '../domain/space-views';
import { memberCountSummary } from './public-space-records.presenter';
import {
  forWriteFromRow,
  SPACE_BY_DID,
  SPACE_BY_DOMAIN,
  SPACE_BY_ID,
  SPACE_FOR_WRITE_BY_DID,
  SPACE_FOR_WRITE_BY_DOMAIN,
  SPACE_FOR_WRITE_BY_ID,
  SpaceForWriteRow,
  SpaceRow,
  spaceFromRow,
  topicFromRow,
  TopicRow,
  TOPIC_OF_SPACE,
  TOPICS_OF_SPACES,
  TOPICS_OF_SPACES_WITH_ACCESS,
} from '../repositories/space-rows';
import {
  DEFAULT_DOMAIN_PATTERN,
  DOMAIN_PATTERN,
  isAdminRole,
  isProtocolDid,
  MemberRole,
  MembershipStatus,
  TopicAccessKind,
} from '../domain/space-rules';

/**
 * Read-side lookups over spaces and memberships for the modules built on them (public reads,
 * posts, events, memberships). Deleted spaces are never returned.
 */
@Injectable()
export class SpaceDirectory implements PublicSpaceProbe {
  constructor(
    @InjectRepository(Space) private readonly spaces: Repository<Space>,
    @InjectRepository(SpaceMembership) private readonly memberships: Repository<SpaceMembership>,
    @InjectRepository(SpaceTopic) private readonly topics: Repository<SpaceTopic>,
    private readonly config: AppConfig,
  ) {}

  /**
   * A live space by subdomain, space entity id or DID, public or not; null for anything else. The
   * normalized `space-<32 hex>` form names the space's id, so it keeps resolving after a claim.
   */
  async findByReference(reference: string): Promise<Space | null> {
    const key = referenceKey(reference);
    if (!key) return null;
    const sql = { did: SPACE_BY_DID, id: SPACE_BY_ID, domain: SPACE_BY_DOMAIN }[key.by];
    return this.liveSpace(sql, key.value);
  }

  /**
   * What a write needs in one query: the live space of `reference`, the person's membership there
   * (any status, or null) and the space's live topic `topicId` (a wire id; null when the space has
   * no such live topic). Null when the reference names no live space.
   */
  async findForWrite(
    reference: string,
    did: string,
    topicId: string | null,
  ): Promise<{
    space: SpaceView;
    membership: { status: MembershipStatus; role: MemberRole } | null;
    topic: TopicView | null;
  } | null> {
    const key = referenceKey(reference);
    if (!key) return null;
    const sql = { did: SPACE_FOR_WRITE_BY_DID, id: SPACE_FOR_WRITE_BY_ID, domain: SPACE_FOR_WRITE_BY_DOMAIN }[
      key.by
    ];
    const rows: SpaceForWriteRow[] = await this.spaces.query(sql, [
      key.value,
      did,
      topicId === null ? null : parseEntityId('topic', topicId),
    ]);
    return rows.length === 0 ? null : forWriteFromRow(rows[0]);
  }

  private async liveSpace(sql: string, key: string): Promise<Space | null> {
    const rows: SpaceRow[] = await this.spaces.query(sql, [key]);
    return rows.length === 0 ? null : spaceFromRow(rows[0]);
  }

  /** A live space with a public profile (api-spec.md: without one it equals a missing space). */
  async findPublicByReference(reference: string): Promise<Space | null> {
    const space = await this.findByReference(reference);
    return space?.isPublic ? space : null;
  }

  /** Whether the reference names a live space with a public profile (the access guard's probe). */
  async isPublic(reference: string): Promise<boolean> {
    return (await this.findPublicByReference(reference)) !== null;
  }

  /** A live space by its uuid (the database id, not the wire id). */
  findById(spaceId: string): Promise<Space | null> {
    return this.liveSpace(SPACE_BY_ID, spaceId);
  }

  /** The live spaces among `spaceIds` (uuids) where the person is an active member, public or not. */
  findMemberSpaces(did: string, spaceIds: string[]): Promise<Space[]> {
    if (spaceIds.length === 0) return Promise.resolve([]);
    return this.spaces
      .createQueryBuilder('space')
      .innerJoin(
        SpaceMembership,
        'membership',
        'membership.spaceId = space.id AND membership.memberDid = :did AND membership.status = :active',
        { did, active: 'active' },
      )
      .where('space.id IN (:...spaceIds)', { spaceIds })
      .getMany();
  }

  /** DIDs of a space's active members (only owners and admins when `adminsOnly`), minus `except`. */
  async activeMemberDids(
    spaceId: string,
    options: { adminsOnly?: boolean; except?: string } = {},
  ): Promise<string[]> {
    const query = this.memberships
      .createQueryBuilder('membership')
      .select('membership.memberDid', 'did')
      .where('membership.spaceId = :spaceId AND membership.status = :active', { spaceId, active: 'active' });
    if (options.adminsOnly) query.andWhere('membership.role IN (:...roles)', { roles: ['owner', 'admin'] });
    if (options.except) query.andWhere('membership.memberDid <> :except', { except: options.except });
    const rows = await query.getRawMany<{ did: string }>();
    return rows.map((row) => row.did);
  }

  /**
   * The person's membership row in any state (active, left, removed, banned, invited), or null;
   * read inside the caller's transaction when `manager` is given.
   */
  membershipOf(spaceId: string, did: string, manager?: EntityManager): Promise<SpaceMembership | null> {
    const memberships = manager ? manager.getRepository(SpaceMembership) : this.memberships;
    return memberships.findOne({ where: { spaceId, memberDid: did } });
  }

  async isActiveMember(spaceId: string, did: string): Promise<boolean> {
    return (await this.roleOf(spaceId, did)) !== null;
  }

  /** The role of an active member (owner, admin, member), else null. */
  async roleOf(spaceId: string, did: string): Promise<MemberRole | null> {
    const membership = await this.membershipOf(spaceId, did);
    return membership?.status === 'active' ? membership.role : null;
  }

  /** Owners and admins. */
  async isAdmin(spaceId: string, did: string): Promise<boolean> {
    return isAdminRole(await this.roleOf(spaceId, did));
  }

  /**
   * Moves the space's last activity forward to `at`, inside the caller's transaction (`manager`)
   * so a content write and its activity commit or roll back together.
   */
  async recordActivity(spaceId: string, at: Date, manager: EntityManager): Promise<void> {
    await manager
      .createQueryBuilder()
      .update(Space)
      .set({ lastActivityAt: () => 'GREATEST(COALESCE("last_activity_at", :at), :at)' })
      .where('id = :spaceId', { spaceId })
      .setParameter('at', at)
      .updateEntity(false)
      .execute();
  }

  /**
   * A live topic of the space by its wire id (`topic_<32 hex>`), whatever its access; null for a
   * deleted, unknown, malformed or other space's topic. Its `accessKind` says who reads its posts.
   */
  /** A live topic of the space by its database id, as posts read it (fixed SQL: every post read asks). */
  async topicView(spaceId: string, topicUuid: string): Promise<TopicView | null> {
    const rows: TopicRow[] = await this.topics.query(TOPIC_OF_SPACE, [topicUuid, spaceId]);
    return rows.length === 0 ? null : topicFromRow(rows[0]);
  }

  async findTopic(spaceId: string, topicId: string): Promise<SpaceTopic | null> {
    const id = parseEntityId('topic', topicId);
    return id ? this.topics.findOne({ where: { id, spaceId } }) : null;
  }

  /**
   * The live topics of live spaces among `spaceIds` (uuids), only those of the given access kinds
   * when `accessKinds` is set: one query whatever the number of spaces (listings, the feed).
   */
  async topicsOf(spaceIds: string[], accessKinds?: TopicAccessKind[]): Promise<TopicView[]> {
    if (spaceIds.length === 0 || accessKinds?.length === 0) return [];
    const rows: TopicRow[] = accessKinds
      ? await this.topics.query(TOPICS_OF_SPACES_WITH_ACCESS, [spaceIds, accessKinds])
      : await this.topics.query(TOPICS_OF_SPACES, [spaceIds]);
    return rows.map(topicFromRow);
  }

  /** A live topic by its uuid (the database id), in any space; null when deleted or unknown. */
  findTopicById(topicId: string): Promise<TopicView | null> {
    return this.topics.findOne({ where: { id: topicId } });
  }

  /** The live spaces where the person is an active member, with their role (the feed). */
  async memberSpacesOf(did: string): Promise<MemberSpace[]> {
    const rows = await this.spaces
      .createQueryBuilder('space')
      .innerJoinAndMapOne(
        'space.membership',
        SpaceMembership,
        'membership',
        'membership.spaceId = space.id AND membership.memberDid = :did AND membership.status = :active',
        { did, active: 'active' },
      )
      .getMany();
    return rows.map((space) => {
      const { membership, ...view } = space as Space & { membership: SpaceMembership };
      return { space: view, role: membership.role };
    });
  }

  /** The space's public web address (api-spec.md: post `canonicalUri`, feed `space.url`). */
  publicUrl(space: Pick<SpaceView, 'domain'>): string {
    return `https://${space.domain}.${this.config.SPACES_WEB_DOMAIN}`;
  }

  memberCountSummary(space: Pick<SpaceView, 'memberCount'>): string {
    return memberCountSummary(space);
  }
}

/**
 * The key a space reference names: a protocol DID, a `space_<32 hex>` id, the `space-<32 hex>`
 * default subdomain (the id, so it keeps resolving after a claim) or a claimed subdomain.
 */
function referenceKey(reference: string): { by: 'did' | 'id' | 'domain'; value: string } | null {
  if (isProtocolDid(reference)) return { by: 'did', value: reference };
  const id =
    parseEntityId('space', reference) ??
    (DEFAULT_DOMAIN_PATTERN.test(reference) ? parseEntityId('space', `space_${reference.slice(6)}`) : null);
  if (id) return { by: 'id', value: id };
  if (DOMAIN_PATTERN.test(reference)) return { by: 'domain', value: reference };
  return null;
}
