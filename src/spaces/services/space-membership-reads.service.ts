import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ProfileLinkDto, ResolvedLinkPage } from '../../common/dto/profile-link.dto';
import { LinkPreviewsService } from '../../link-previews';
import { formatEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, KeysetPage, openKeysetPage } from '../../common/pagination/keyset';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { SpaceMembershipsRepository } from '../repositories/space-memberships.repository';
import { Space } from '../entities/space.entity';
import { toProfileLinkDto } from '../../common/dto/profile-link.dto';
import { memberCountSummary } from './public-space-records.presenter';
import { SpaceAccessService } from './space-access.service';
import { SpaceDirectoryService } from './space-directory.service';
import { MemberRole } from '../domain/space-rules';
import { EXPORT_PAGE_ROWS, ExportPage, exportPageOf } from '../../common/export/export-page';

/** A person's memberships in the order they are listed (joined_at, then space id). */
const MEMBERSHIP_ORDER: KeysetColumn[] = [
  { expression: 'm.joined_at', direction: 'ASC' },
  { expression: 'm.space_id', direction: 'ASC' },
];

/** A membership row of a person as their export holds it (any status). */
export interface ExportedMembership {
  space: { id: string; did: string; displayName: string | null };
  role: string;
  status: string;
  statusMessage: string | null;
  joinedAt: string | null;
  bannedAt: string | null;
  createdAt: string;
}

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
export class SpaceMembershipReadsService {
  constructor(
    private readonly memberships: SpaceMembershipsRepository,
    private readonly directory: SpaceDirectoryService,
    private readonly access: SpaceAccessService,
    private readonly cursors: CursorCodec,
    private readonly previews: LinkPreviewsService,
  ) {}

  /**
   * A page of the person's membership rows in any status, for their export (issue 35 item 3;
   * docs/decisions/0210-personal-export-archive-layout.md): one statement, by space id.
   */
  async exportPageOf(
    memberDid: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<ExportedMembership>> {
    const rows = await this.memberships.exportPage(memberDid, after, limit + 1, runner);
    return exportPageOf(
      rows,
      limit,
      (row) => row.space_id,
      (row) => ({
        space: {
          id: formatEntityId('space', row.space_id),
          did: row.space_did,
          displayName: row.space_display_name,
        },
        role: row.role,
        status: row.status,
        statusMessage: row.status_message,
        joinedAt: row.joined_at ? row.joined_at.toISOString() : null,
        bannedAt: row.banned_at ? row.banned_at.toISOString() : null,
        createdAt: row.created_at.toISOString(),
      }),
    );
  }

  /** The person's active memberships of live spaces, `joinedAt` ascending then space id. */
  async listActive(
    did: string,
    roles: readonly MemberRole[] | null,
    page: PaginationQueryDto,
  ): Promise<KeysetPage<ActiveMembership>> {
    const keyset = {
      listing: 'memberships',
      columns: MEMBERSHIP_ORDER,
      keyOf: (row: ActiveMembership) => [row.joinedAt.toISOString(), row.space.id],
      page,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    return closeKeysetPage(seek, await this.memberships.activeOfPersonPage(did, roles, seek), keyset);
  }

  /** How many rows `listActive` walks through with the same filter. */
  countActive(did: string, roles: readonly MemberRole[] | null): Promise<number> {
    return this.memberships.activeOfPersonCount(did, roles);
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

  /** The roles of the person's active memberships, by space uuid, among `spaceIds` (live spaces only). */
  async rolesIn(did: string, spaceIds: string[]): Promise<Map<string, MemberRole>> {
    if (spaceIds.length === 0) return new Map();
    return this.memberships.rolesIn(did, spaceIds);
  }

  /**
   * What is resolved of the pages of these spaces' links, for their `space` blocks: one batch for
   * all of them, no statement without links (docs/decisions/0156-link-cards-read-in-one-batch.md).
   */
  async linkPagesOf(spaces: readonly Space[]): Promise<ReadonlyMap<string, ResolvedLinkPage>> {
    const urls = [...new Set(spaces.flatMap((space) => space.links.map((link) => link.url)))];
    return urls.length > 0 ? this.previews.previewsOf(urls) : new Map();
  }

  /**
   * The `space` block of a membership item: public identity, its links (with `pages`, from
   * `linkPagesOf`) and a worded member count.
   */
  spaceBlock(
    space: Space,
    avatarUrl: string | null,
    pages: ReadonlyMap<string, ResolvedLinkPage> = new Map(),
  ): MembershipSpaceBlock {
    return {
      id: formatEntityId('space', space.id),
      did: space.did,
      domain: space.domain,
      displayName: space.displayName,
      description: space.description,
      avatarUrl,
      links: space.links.map((link) => toProfileLinkDto(link, pages.get(link.url))),
      memberCountSummary: memberCountSummary(space),
    };
  }
}
