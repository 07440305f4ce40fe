import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { conflict, invalidRequest, notFound } from '../../common/errors/api-error';
import { newUuid, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { paginateKeyset } from '../../common/pagination/keyset';
import { Page } from '../../common/pagination/page';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { isUniqueViolation } from '../domain/db-errors';
import { PublicTopic, TopicAdminRecord } from '../dto/public-space-records.dto';
import { TopicAccessInput, TopicRequest } from '../dto/site-requests.dto';
import { SpaceTopic } from '../entities/space-topic.entity';
import { toPublicTopic, toTopicAdminRecord } from './public-space-records.presenter';
import { SpaceAccess } from './space-access.service';
import { SpaceDirectory } from './space-directory.service';
import { topicNameKey } from '../domain/space-rules';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { SpaceVisibilityChanged } from '../events/visibility.events';

const TOPIC_ORDER = [
  { expression: 'topic.nameKey', direction: 'ASC' as const },
  { expression: 'topic.id', direction: 'ASC' as const },
];
const topicKey = (topic: SpaceTopic) => [topic.nameKey, topic.id];

/**
 * Topics: the admins' writes (design.md §9) and the anonymous reads, which show only topics whose
 * access is `public` of spaces with a public profile.
 */
@Injectable()
export class SpaceTopicsService {
  constructor(
    @InjectRepository(SpaceTopic) private readonly topics: Repository<SpaceTopic>,
    private readonly directory: SpaceDirectory,
    private readonly access: SpaceAccess,
    private readonly cursors: CursorCodec,
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {}

  async listPublic(reference: string, query: PaginationQueryDto): Promise<Page<PublicTopic>> {
    const space = await this.directory.findPublicByReference(reference);
    if (!space) throw notFound();
    const builder = this.topics
      .createQueryBuilder('topic')
      .where('topic.spaceId = :spaceId', { spaceId: space.id })
      .andWhere(`topic.accessKind = 'public'`);
    const page = await paginateKeyset(builder, {
      listing: 'public-space-topics',
      columns: TOPIC_ORDER,
      keyOf: topicKey,
      page: query,
      cursors: this.cursors,
    });
    return {
      items: page.rows.map(toPublicTopic),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  async getPublic(reference: string, topicId: string): Promise<PublicTopic> {
    const space = await this.directory.findPublicByReference(reference);
    const topic = space ? await this.directory.findTopic(space.id, topicId) : null;
    if (!topic || topic.accessKind !== 'public') throw notFound();
    return toPublicTopic(topic);
  }

  /** Every live topic of the space, whatever its access (admins). */
  async listForAdmin(
    principal: RequestPrincipal,
    pathId: string,
    query: PaginationQueryDto,
  ): Promise<Page<TopicAdminRecord>> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const builder = this.topics
      .createQueryBuilder('topic')
      .where('topic.spaceId = :spaceId', { spaceId: space.id });
    const page = await paginateKeyset(builder, {
      listing: 'admin-space-topics',
      columns: TOPIC_ORDER,
      keyOf: topicKey,
      page: query,
      cursors: this.cursors,
    });
    return {
      items: page.rows.map(toTopicAdminRecord),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  async create(
    principal: RequestPrincipal,
    pathId: string,
    request: TopicRequest,
  ): Promise<TopicAdminRecord> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    await this.assertGroupsOf(space.id, request.access);
    const topic = this.topics.create({
      id: newUuid(),
      spaceId: space.id,
      description: null,
      ...this.fields(request),
    });
    await this.saveUnique(topic);
    return toTopicAdminRecord(await this.topics.findOneByOrFail({ id: topic.id }));
  }

  /** Replaces name and access; `description` when sent (null or blank clears it). */
  async update(
    principal: RequestPrincipal,
    pathId: string,
    topicId: string,
    request: TopicRequest,
  ): Promise<TopicAdminRecord> {
    const topic = await this.adminTopic(principal, pathId, topicId);
    await this.assertGroupsOf(topic.spaceId, request.access);
    const wasPublic = topic.accessKind === 'public';
    Object.assign(topic, this.fields(request));
    await this.dataSource.transaction(async (manager) => {
      await this.saveUnique(topic, manager);
      if (wasPublic !== (topic.accessKind === 'public')) {
        await this.events.emit(manager, new SpaceVisibilityChanged(topic.spaceId, topic.id));
      }
    });
    return toTopicAdminRecord(await this.topics.findOneByOrFail({ id: topic.id }));
  }

  /** Soft delete: posts may keep pointing at it; from now on it is 404 everywhere. */
  async remove(principal: RequestPrincipal, pathId: string, topicId: string): Promise<void> {
    const topic = await this.adminTopic(principal, pathId, topicId);
    await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(SpaceTopic).softDelete({ id: topic.id });
      if (topic.accessKind === 'public') {
        await this.events.emit(manager, new SpaceVisibilityChanged(topic.spaceId, topic.id));
      }
    });
  }

  private async adminTopic(
    principal: RequestPrincipal,
    pathId: string,
    topicId: string,
  ): Promise<SpaceTopic> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const topic = await this.directory.findTopic(space.id, topicId);
    if (!topic) throw notFound();
    return topic;
  }

  /**
   * A `groups` access names groups of this very space (a 400 otherwise, nothing stored). Groups are
   * the memberships module's: read from the view it publishes, `space_group_ids`.
   */
  private async assertGroupsOf(spaceId: string, access: TopicAccessInput): Promise<void> {
    if (typeof access === 'string') return;
    const ids = access.groups.map((id) => parseEntityId('group', id)!);
    const rows: { id: string }[] = await this.topics.query(
      'SELECT "id" FROM "space_group_ids" WHERE "space_id" = $1 AND "id" = ANY($2::uuid[])',
      [spaceId, ids],
    );
    const known = new Set(rows.map((row) => row.id));
    const details = ids.flatMap((id, index) =>
      known.has(id) ? [] : [{ path: `access.groups.${index}`, message: 'not a group of this space' }],
    );
    if (details.length > 0) throw invalidRequest('Invalid request', details);
  }

  private fields(request: TopicRequest): Partial<SpaceTopic> {
    return {
      name: request.name,
      nameKey: topicNameKey(request.name),
      ...(request.description !== undefined ? { description: request.description || null } : {}),
      ...storedAccess(request.access),
    };
  }

  private async saveUnique(topic: SpaceTopic, manager?: EntityManager): Promise<void> {
    try {
      await (manager?.getRepository(SpaceTopic) ?? this.topics).save(topic);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('A topic of that name exists');
      throw error;
    }
  }
}

function storedAccess(access: TopicAccessInput): Pick<SpaceTopic, 'accessKind' | 'accessGroupIds'> {
  if (typeof access === 'string') return { accessKind: access, accessGroupIds: [] };
  return { accessKind: 'groups', accessGroupIds: access.groups.map((id) => parseEntityId('group', id)!) };
}
