import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { conflict, invalidRequest, notFound } from '../../common/errors/api-error';
import { newUuid, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { Page } from '../../common/pagination/page';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { isUniqueViolation } from '../repositories/db-errors';
import { PublicTopic, TopicAdminRecord } from '../dto/public-space-records.dto';
import { TopicAccessInput, TopicRequest } from '../dto/site-requests.dto';
import { SpaceTopic } from '../entities/space-topic.entity';
import { SpaceTopicsRepository } from '../repositories/space-topics.repository';
import { toPublicTopic, toTopicAdminRecord } from './public-space-records.presenter';
import { SpaceAccessService } from './space-access.service';
import { SpaceDirectoryService } from './space-directory.service';
import { topicNameKey } from '../domain/space-rules';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { SpaceVisibilityChanged } from '../events/visibility.events';

const TOPIC_ORDER: KeysetColumn[] = [
  { expression: 'name_key', direction: 'ASC' },
  { expression: 'id', direction: 'ASC' },
];
const topicKey = (topic: SpaceTopic) => [topic.nameKey, topic.id];

/**
 * Topics: the admins' writes (design.md §9) and the anonymous reads, which show only topics whose
 * access is `public` of spaces with a public profile.
 */
@Injectable()
export class SpaceTopicsService {
  constructor(
    private readonly topics: SpaceTopicsRepository,
    private readonly directory: SpaceDirectoryService,
    private readonly access: SpaceAccessService,
    private readonly cursors: CursorCodec,
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {}

  async listPublic(reference: string, query: PaginationQueryDto): Promise<Page<PublicTopic>> {
    const space = await this.directory.findPublicByReference(reference);
    if (!space) throw notFound();
    const keyset = {
      listing: 'public-space-topics',
      columns: TOPIC_ORDER,
      keyOf: topicKey,
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.topics.publicPage(space.id, seek), keyset);
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
    const keyset = {
      listing: 'admin-space-topics',
      columns: TOPIC_ORDER,
      keyOf: topicKey,
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.topics.allPage(space.id, seek), keyset);
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
    return toTopicAdminRecord(await this.topics.get(topic.id));
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
    return toTopicAdminRecord(await this.topics.get(topic.id));
  }

  /** Soft delete: posts may keep pointing at it; from now on it is 404 everywhere. */
  async remove(principal: RequestPrincipal, pathId: string, topicId: string): Promise<void> {
    const topic = await this.adminTopic(principal, pathId, topicId);
    await this.dataSource.transaction(async (manager) => {
      await this.topics.softDelete(topic.id, manager);
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
    const known = await this.topics.groupsOfSpace(spaceId, ids);
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
      await this.topics.save(topic, manager);
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
