import { ResolvedLinkPage, toProfileLinkDto } from '../../common/dto/profile-link.dto';
import { formatEntityId } from '../../common/ids/entity-id';
import { BanRecord, MemberRecord, SpaceRecord } from '../dto/space-records.dto';
import { SpaceMembership } from '../entities/space-membership.entity';
import { Space } from '../entities/space.entity';

const mediaId = (uuid: string | null) => (uuid ? formatEntityId('media', uuid) : null);
const NO_PAGES: ReadonlyMap<string, ResolvedLinkPage> = new Map();
const iso = (date: Date) => date.toISOString();

/**
 * Entities to the legacy records, field by field. A caller who is not a member (`role` null) reads
 * a public space's profile and settings but not its exact member count or last activity
 * (api-spec.md: "never private membership or activity"). `pages`: what is resolved of its links'
 * pages, by URL (reads only; a write answers its links without, docs/decisions/0157-link-resolution-queued-after-the-write.md).
 */
export function toSpaceRecord(
  space: Space,
  role: string | null,
  pages: ReadonlyMap<string, ResolvedLinkPage> = NO_PAGES,
): SpaceRecord {
  return {
    id: formatEntityId('space', space.id),
    did: space.did,
    domain: space.domain,
    displayName: space.displayName,
    description: space.description,
    avatarId: mediaId(space.avatarMediaId),
    bannerId: mediaId(space.headerMediaId),
    backgroundId: mediaId(space.backgroundMediaId),
    links: space.links.map((link) => toProfileLinkDto(link, pages.get(link.url))),
    isPublic: space.isPublic,
    joinMode: space.joinMode,
    siteMode: space.siteMode,
    subscribeEnabled: space.subscribeEnabled,
    category: space.category,
    discoveryOptIn: space.discoveryOptIn,
    verifiedDomain: space.verifiedDomain,
    applicationQuestions: space.applicationQuestions.map((q) => ({
      question: q.question,
      isRequired: q.isRequired,
    })),
    memberCount: role ? space.memberCount : null,
    role,
    lastActivityAt: role && space.lastActivityAt ? iso(space.lastActivityAt) : null,
    createdAt: iso(space.createdAt),
    updatedAt: iso(space.updatedAt),
  };
}

export function toMemberRecord(membership: SpaceMembership): MemberRecord {
  return {
    did: membership.memberDid,
    role: membership.role,
    joinedAt: iso(membership.joinedAt ?? membership.createdAt),
    statusMessage: membership.statusMessage,
  };
}

export function toBanRecord(membership: SpaceMembership): BanRecord {
  return {
    did: membership.memberDid,
    bannedAt: iso(membership.bannedAt ?? membership.updatedAt),
    bannedBy: membership.bannedByDid,
  };
}
