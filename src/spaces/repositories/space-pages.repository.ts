import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { KeysetSeek } from '../../common/pagination/keyset';
import { defineStatements } from '../../infrastructure/database/statements';
import { SpacePage } from '../entities/space-page.entity';
import {
  keysetStatement,
  keysetVariants,
  SPACE_PAGE_COLUMNS,
  spacePageFromRow,
  SpacePageRow,
} from './space-rows';

const PAGE_ORDER = ['sort_order', 'id'];

/** The spaces module's fixed SQL on `space_pages` (docs/decisions/0131-a-repository-per-module.md). */
export const SPACE_PAGES_STATEMENTS = defineStatements('SpacePagesRepository', {
  /** A space's (`$1`) enabled pages by sort order, then id. */
  enabledPage: keysetVariants(
    `SELECT ${SPACE_PAGE_COLUMNS} FROM space_pages`,
    'space_id = $1 AND enabled',
    1,
    PAGE_ORDER,
    'ASC',
  ),
  /** Every page of a space (`$1`), disabled ones included, by sort order, then id. */
  allPage: keysetVariants(
    `SELECT ${SPACE_PAGE_COLUMNS} FROM space_pages`,
    'space_id = $1',
    1,
    PAGE_ORDER,
    'ASC',
  ),
  /** The enabled pages among `$1` (uuids), of any spaces (other modules' batch reads). */
  enabledByIds: `SELECT ${SPACE_PAGE_COLUMNS} FROM space_pages WHERE id = ANY($1::uuid[]) AND enabled`,
  /**
   * The users among `$1` (uuids) with a public profile: read from the users module's published
   * view `public_users` (that module imports this one, so it cannot be injected here).
   */
  publicUsers: 'SELECT "id" FROM "public_users" WHERE "id" = ANY($1::uuid[])',
});

/** Every statement on `space_pages` (and the public users a page body may name). */
@Injectable()
export class SpacePagesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The enabled pages among `ids` (uuids), in no particular order. */
  async enabledByIds(ids: string[]): Promise<SpacePage[]> {
    const rows = await this.dataSource.query<SpacePageRow[]>(SPACE_PAGES_STATEMENTS.enabledByIds, [ids]);
    return rows.map(spacePageFromRow);
  }

  /** A page of the space by uuid, else null. */
  findInSpace(spaceId: string, pageUuid: string): Promise<SpacePage | null> {
    return this.dataSource.getRepository(SpacePage).findOne({ where: { id: pageUuid, spaceId } });
  }

  /** A page of the space by slug, else null. */
  findBySlug(spaceId: string, slug: string): Promise<SpacePage | null> {
    return this.dataSource.getRepository(SpacePage).findOne({ where: { slug, spaceId } });
  }

  /** A page that must exist (just written). */
  get(pageUuid: string): Promise<SpacePage> {
    return this.dataSource.getRepository(SpacePage).findOneByOrFail({ id: pageUuid });
  }

  slugTaken(spaceId: string, slug: string): Promise<boolean> {
    return this.dataSource.getRepository(SpacePage).exists({ where: { spaceId, slug } });
  }

  /** A new page, not stored yet. */
  create(fields: Partial<SpacePage>): SpacePage {
    return this.dataSource.getRepository(SpacePage).create(fields);
  }

  async insert(page: SpacePage): Promise<void> {
    await this.dataSource.getRepository(SpacePage).insert(page);
  }

  async save(page: SpacePage): Promise<void> {
    await this.dataSource.getRepository(SpacePage).save(page);
  }

  async delete(pageUuid: string): Promise<void> {
    await this.dataSource.getRepository(SpacePage).delete({ id: pageUuid });
  }

  enabledPage(spaceId: string, seek: KeysetSeek): Promise<SpacePage[]> {
    return this.page(SPACE_PAGES_STATEMENTS.enabledPage, spaceId, seek);
  }

  allPage(
    spaceId: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<SpacePage[]> {
    return this.page(SPACE_PAGES_STATEMENTS.allPage, spaceId, seek, runner);
  }

  /** The uuids among `userIds` of users with a public profile. */
  async publicUsers(userIds: string[]): Promise<Set<string>> {
    const rows = await this.dataSource.query<{ id: string }[]>(SPACE_PAGES_STATEMENTS.publicUsers, [userIds]);
    return new Set(rows.map((row) => row.id));
  }

  private async page(
    variants: { first: string; after: string; before: string },
    spaceId: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<SpacePage[]> {
    const [sql, parameters] = keysetStatement(variants, [spaceId], seek);
    return (await runner.query<SpacePageRow[]>(sql, parameters)).map(spacePageFromRow);
  }
}
