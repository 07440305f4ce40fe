import { AppConfig } from '../../config/app-config';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PublicSpaceProbe } from '../../common/auth/public-space-probe';
import { parseEntityId } from '../../common/ids/entity-id';
import { SpaceMembership } from '../entities/space-membership.entity';
import { SpaceTopic } from '../entities/space-topic.entity';
import { Space } from '../entities/space.entity';
import { MemberSpace, SpaceView, TopicView } from '../domain/space-views';
import { memberCountSummary } from './public-space-records.presenter';
import { SpaceMembershipsRepository } from '../repositories/space-memberships.repository';
import { SpaceTopicsRepository } from '../repositories/space-topics.repository';
import { SpacesRepository } from '../repositories/spaces.repository';
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
export class SpaceDirectoryService implements PublicSpaceProbe {
  constructor(
    private readonly spaces: SpacesRepository,
    private readonly memberships: SpaceMembershipsRepository,
    private readonly topics: SpaceTopicsRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * A live space by subdomain, space entity id or DID, public or not; null for anything else. The
   * normalized `space-<32 hex>` form names the space's id, so it keeps resolving after a claim.
   */
  async findByReference(reference: string): Promise<Space | null> {
    const key = referenceKey(reference);
    if (!key) return null;
    return this.spaces.live(key.by, key.value);
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
    return this.spaces.forWrite(
      key.by,
      key.value,
      did,
      topicId === null ? null : parseEntityId('topic', topicId),
    );
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
    return this.spaces.live('id', spaceId);
  }

  /** The live spaces among `spaceIds` (uuids) where the person is an active member, public or not. */
  findMemberSpaces(did: string, spaceIds: string[]): Promise<Space[]> {
    if (spaceIds.length === 0) return Promise.resolve([]);
    return this.spaces.memberSpacesAmong(did, spaceIds);
  }

  /** DIDs of a space's active members (only owners and admins when `adminsOnly`), minus `except`. */
  async activeMemberDids(
    spaceId: string,
    options: { adminsOnly?: boolean; except?: string } = {},
  ): Promise<string[]> {
    return this.memberships.activeDids(spaceId, options);
  }

  /**
   * The person's membership row in any state (active, left, removed, banned, invited), or null;
   * read inside the caller's transaction when `manager` is given.
   */
  membershipOf(spaceId: string, did: string, manager?: EntityManager): Promise<SpaceMembership | null> {
    return this.memberships.find(spaceId, did, manager);
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
    await this.spaces.recordActivity(spaceId, at, manager);
  }

  /**
   * A live topic of the space by its wire id (`topic_<32 hex>`), whatever its access; null for a
   * deleted, unknown, malformed or other space's topic. Its `accessKind` says who reads its posts.
   */
  /** A live topic of the space by its database id, as posts read it (fixed SQL: every post read asks). */
  async topicView(spaceId: string, topicUuid: string): Promise<TopicView | null> {
    return this.spaces.topicOfSpace(topicUuid, spaceId);
  }

  async findTopic(spaceId: string, topicId: string): Promise<SpaceTopic | null> {
    const id = parseEntityId('topic', topicId);
    return id ? this.topics.findInSpace(spaceId, id) : null;
  }

  /**
   * The live topics of live spaces among `spaceIds` (uuids), only those of the given access kinds
   * when `accessKinds` is set: one query whatever the number of spaces (listings, the feed).
   */
  async topicsOf(spaceIds: string[], accessKinds?: TopicAccessKind[]): Promise<TopicView[]> {
    if (spaceIds.length === 0 || accessKinds?.length === 0) return [];
    return this.spaces.topicsOfSpaces(spaceIds, accessKinds);
  }

  /** A live topic by its uuid (the database id), in any space; null when deleted or unknown. */
  findTopicById(topicId: string): Promise<TopicView | null> {
    return this.topics.findById(topicId);
  }

  /** The live spaces where the person is an active member, with their role (the feed). */
  async memberSpacesOf(did: string): Promise<MemberSpace[]> {
    return this.spaces.memberSpaces(did);
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
