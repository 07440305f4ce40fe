import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { KeysetSeek } from '../../common/pagination/keyset';
import { defineStatements } from '../../infrastructure/database/statements';
import { SpaceTopic } from '../entities/space-topic.entity';
import {
  keysetStatement,
  keysetVariants,
  SPACE_TOPIC_COLUMNS,
  spaceTopicFromRow,
  SpaceTopicRow,
} from './space-rows';

const TOPIC_ORDER = ['name_key', 'id'];

/** The spaces module's fixed SQL on `space_topics` (docs/decisions/0131-a-repository-per-module.md). */
export const SPACE_TOPICS_STATEMENTS = defineStatements('SpaceTopicsRepository', {
  /** A space's (`$1`) live public topics by name key, then id. */
  publicPage: keysetVariants(
    `SELECT ${SPACE_TOPIC_COLUMNS} FROM space_topics`,
    "space_id = $1 AND access_kind = 'public' AND deleted_at IS NULL",
    1,
    TOPIC_ORDER,
    'ASC',
  ),
  /** Every live topic of a space (`$1`), whatever its access, by name key, then id. */
  allPage: keysetVariants(
    `SELECT ${SPACE_TOPIC_COLUMNS} FROM space_topics`,
    'space_id = $1 AND deleted_at IS NULL',
    1,
    TOPIC_ORDER,
    'ASC',
  ),
  /**
   * The groups among `$2` that are groups of the space `$1`: read from the view the memberships
   * module publishes, `space_group_ids`.
   */
  groupsOfSpace: 'SELECT "id" FROM "space_group_ids" WHERE "space_id" = $1 AND "id" = ANY($2::uuid[])',
});

/** Every statement on `space_topics` but the directory's reads of live topics (SpacesRepository). */
@Injectable()
export class SpaceTopicsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A live topic of the space by uuid, else null. */
  findInSpace(spaceId: string, topicUuid: string): Promise<SpaceTopic | null> {
    return this.dataSource.getRepository(SpaceTopic).findOne({ where: { id: topicUuid, spaceId } });
  }

  /** A live topic by uuid, in any space, else null. */
  findById(topicUuid: string): Promise<SpaceTopic | null> {
    return this.dataSource.getRepository(SpaceTopic).findOne({ where: { id: topicUuid } });
  }

  /** A live topic that must exist (just written). */
  get(topicUuid: string): Promise<SpaceTopic> {
    return this.dataSource.getRepository(SpaceTopic).findOneByOrFail({ id: topicUuid });
  }

  /** A new topic, not stored yet. */
  create(fields: Partial<SpaceTopic>): SpaceTopic {
    return this.dataSource.getRepository(SpaceTopic).create(fields);
  }

  async save(topic: SpaceTopic, runner: EntityManager = this.dataSource.manager): Promise<void> {
    await runner.getRepository(SpaceTopic).save(topic);
  }

  async softDelete(topicUuid: string, runner: EntityManager): Promise<void> {
    await runner.getRepository(SpaceTopic).softDelete({ id: topicUuid });
  }

  publicPage(spaceId: string, seek: KeysetSeek): Promise<SpaceTopic[]> {
    return this.page(SPACE_TOPICS_STATEMENTS.publicPage, spaceId, seek);
  }

  allPage(
    spaceId: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<SpaceTopic[]> {
    return this.page(SPACE_TOPICS_STATEMENTS.allPage, spaceId, seek, runner);
  }

  /** The uuids among `groupIds` that are groups of the space. */
  async groupsOfSpace(spaceId: string, groupIds: string[]): Promise<Set<string>> {
    const rows = await this.dataSource.query<{ id: string }[]>(SPACE_TOPICS_STATEMENTS.groupsOfSpace, [
      spaceId,
      groupIds,
    ]);
    return new Set(rows.map((row) => row.id));
  }

  private async page(
    variants: { first: string; after: string; before: string },
    spaceId: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<SpaceTopic[]> {
    const [sql, parameters] = keysetStatement(variants, [spaceId], seek);
    return (await runner.query<SpaceTopicRow[]>(sql, parameters)).map(spaceTopicFromRow);
  }
}
