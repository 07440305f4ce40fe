import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EXPORT_PAGE_ROWS, ExportPage, exportPageOf } from '../../common/export/export-page';
import type { KeysetValue } from '../../common/pagination/cursor-codec';
import type { KeysetSeek } from '../../common/pagination/keyset';
import { MemberRecord, SpaceRecord } from '../dto/space-records.dto';
import { PageAdminRecord, TopicAdminRecord } from '../dto/public-space-records.dto';
import { SpaceMembershipsRepository } from '../repositories/space-memberships.repository';
import { SpacePagesRepository } from '../repositories/space-pages.repository';
import { SpaceTopicsRepository } from '../repositories/space-topics.repository';
import { SpacesRepository } from '../repositories/spaces.repository';
import { toPageAdminRecord, toTopicAdminRecord } from './public-space-records.presenter';
import { toMemberRecord, toSpaceRecord } from './space-records.presenter';

/**
 * The spaces module's part of a space's export (issue 35 item 4;
 * docs/decisions/0216-space-export-archive-layout.md): the space as its owner's administration view
 * shows it, and keyset pages of its topics, pages and active members in the admin listings' shapes
 * and orders, each page one of the listings' own statements. The caller has checked the owner.
 */
@Injectable()
export class SpaceExportService {
  constructor(
    private readonly spaces: SpacesRepository,
    private readonly topics: SpaceTopicsRepository,
    private readonly pages: SpacePagesRepository,
    private readonly memberships: SpaceMembershipsRepository,
  ) {}

  /** GET /spaces/{space} as its owner reads it (link previews aside); null once it is gone. */
  async spaceOf(spaceId: string, runner?: EntityManager): Promise<SpaceRecord | null> {
    const space = await this.spaces.findById(spaceId, runner);
    return space ? toSpaceRecord(space, 'owner') : null;
  }

  /**
   * The content id of the space's public profile chain; null when it has none (a private space):
   * the space export's `chains/` (docs/decisions/0235).
   */
  async profileContentIdOf(spaceId: string, runner?: EntityManager): Promise<string | null> {
    return (await this.spaces.findById(spaceId, runner))?.profileContentId ?? null;
  }

  /** Live topics, whatever their access, by name. */
  async topicsPage(
    spaceId: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<TopicAdminRecord>> {
    const rows = await this.topics.allPage(spaceId, seekOf(after, limit), runner);
    return exportPageOf(rows, limit, (row) => JSON.stringify([row.nameKey, row.id]), toTopicAdminRecord);
  }

  /** Every page, disabled ones included, in their order. */
  async pagesPage(
    spaceId: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<PageAdminRecord>> {
    const rows = await this.pages.allPage(spaceId, seekOf(after, limit), runner);
    return exportPageOf(rows, limit, (row) => JSON.stringify([row.sortOrder, row.id]), toPageAdminRecord);
  }

  /** The members list (active members, earliest joined first) in its own shape: no private field. */
  async membersPage(
    spaceId: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<MemberRecord>> {
    const rows = await this.memberships.membersPage(spaceId, seekOf(after, limit), runner);
    return exportPageOf(
      rows,
      limit,
      (row) => JSON.stringify([row.joinedAt!.toISOString(), row.memberDid]),
      toMemberRecord,
    );
  }
}

/** A forward seek after a cursor this service wrote (the keyset values as JSON), never a client's. */
function seekOf(after: string | null, limit: number): KeysetSeek {
  return { values: after ? (JSON.parse(after) as KeysetValue[]) : null, backward: false, take: limit + 1 };
}
