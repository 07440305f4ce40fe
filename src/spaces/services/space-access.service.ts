import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { forbidden, notFound } from '../../common/errors/api-error';
import { parseEntityId } from '../../common/ids/entity-id';
import { Space } from '../entities/space.entity';
import { SpaceMembershipsRepository } from '../repositories/space-memberships.repository';
import { SpacesRepository } from '../repositories/spaces.repository';
import { isActive, isAdmin, SpaceContext } from '../domain/space-context';

/**
 * Who reaches which space on the legacy routes. A space is reachable when it is live and either
 * has a public profile, or the caller is an active member, or the caller (not banned) has an
 * application pending (legacy-spaces' applications). A past applicant (rejected, withdrawn,
 * approved and gone since) is a stranger again (docs/decisions/0116-past-applicants-of-private-spaces.md).
 * Everything else, malformed ids included, is the one 404.
 */
@Injectable()
export class SpaceAccessService {
  constructor(
    private readonly spaces: SpacesRepository,
    private readonly memberships: SpaceMembershipsRepository,
  ) {}

  async resolve(pathId: string, did: string): Promise<SpaceContext> {
    return this.reach(await this.find(pathId), did);
  }

  /** The context of a loaded live space, or the 404 when the caller may not reach it. */
  reach(space: Space, did: string): Promise<SpaceContext> {
    return this.reachWith(space, did, 'pending');
  }

  /**
   * The space as an applicant reaches it to follow or withdraw their own application (GET, DELETE
   * /spaces/{id}/applications/me): as `resolve`, and also with an application in any state, so a
   * decided or withdrawn applicant still reads their own record (and nothing else of the space).
   */
  async resolveApplicant(pathId: string, did: string): Promise<SpaceContext> {
    return this.reachWith(await this.find(pathId), did);
  }

  private async find(pathId: string): Promise<Space> {
    const id = parseEntityId('space', pathId);
    if (!id) throw notFound();
    const space = await this.spaces.findById(id);
    if (!space) throw notFound();
    return space;
  }

  private async reachWith(space: Space, did: string, application?: 'pending'): Promise<SpaceContext> {
    const membership = await this.memberships.find(space.id, did);
    const context = { space, membership, did };
    if (space.isPublic || isActive(context)) return context;
    if (membership?.status !== 'banned') {
      if (await this.hasApplied(space.id, did, application)) return context;
    }
    throw notFound();
  }

  /**
   * Whether the person has applied to the space (in `status`, when given): read from the view
   * legacy-spaces publishes (`space_applicants`), since applications are that module's.
   */
  async hasApplied(spaceId: string, did: string, status?: 'pending'): Promise<boolean> {
    return this.memberships.hasApplied(spaceId, did, status ?? null);
  }

  async resolveMember(pathId: string, did: string): Promise<SpaceContext> {
    const context = await this.resolve(pathId, did);
    if (!isActive(context)) throw forbidden('Members only');
    return context;
  }

  async resolveAdmin(pathId: string, did: string): Promise<SpaceContext> {
    const context = await this.resolve(pathId, did);
    if (!isAdmin(context)) throw forbidden('Admins only');
    return context;
  }

  /**
   * Locks the space row for the rest of the transaction. Every change to a space's memberships,
   * invites and applications holds this lock, so counts and invite uses stay exact under concurrency.
   */
  async lock(manager: EntityManager, spaceId: string): Promise<Space> {
    const space = await this.spaces.lock(spaceId, manager);
    if (!space) throw notFound();
    return space;
  }
}
