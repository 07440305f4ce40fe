import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import { erasedBanHash } from '../domain/erased-bans';
import { forbidden } from '../../common/errors/api-error';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { MemberBanned, MemberJoined, MembershipEnded } from '../events/membership.events';
import { SpaceMembership } from '../entities/space-membership.entity';
import { SpaceMembershipsRepository } from '../repositories/space-memberships.repository';
import { SpacesRepository } from '../repositories/spaces.repository';
import { ErasedRows } from '../../common/erasure/erased-rows';

/**
 * The membership changes shared by joins, approvals, leaves, kicks and bans. Callers hold the
 * space's row lock (SpaceAccessService.lock) for the whole transaction.
 */
@Injectable()
export class MembershipWritesService {
  constructor(
    private readonly clock: Clock,
    private readonly events: DomainEvents,
    private readonly spaces: SpacesRepository,
    private readonly memberships: SpaceMembershipsRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * Makes the person an active member (role member) unless they already are; a banned person is
   * refused. Joins are activity. Returns the active membership.
   */
  async admit(manager: EntityManager, spaceId: string, did: string): Promise<SpaceMembership> {
    const existing = await this.memberships.find(spaceId, did, manager);
    if (existing?.status === 'active') return existing;
    if (existing?.status === 'banned') throw forbidden('Banned from this space');
    if (!existing && (await this.erasedBan(manager, spaceId, did))) throw forbidden('Banned from this space');
    const now = this.clock.now();
    const membership =
      existing ??
      this.memberships.create({
        spaceId,
        memberDid: did,
        bannedAt: null,
        bannedByDid: null,
        statusMessage: null,
      });
    Object.assign(membership, { role: 'member', status: 'active', joinedAt: now, statusMessage: null });
    await this.memberships.save(membership, manager);
    await this.spaces.countJoin(spaceId, now, manager);
    await this.events.emit(manager, new MemberJoined(spaceId, did));
    return membership;
  }

  /** Ends an active membership (left or removed); `MembershipEnded` lets invites stop admitting. */
  async end(manager: EntityManager, membership: SpaceMembership, status: 'left' | 'removed'): Promise<void> {
    membership.status = status;
    await this.memberships.save(membership, manager);
    await this.refreshCount(manager, membership.spaceId);
    await this.events.emit(manager, new MembershipEnded(membership.spaceId, membership.memberDid, status));
  }

  /**
   * Bans a person whatever their standing (a member, a former member, a stranger): the row turns
   * banned; on `MemberBanned` their invites stop admitting and their pending applications are
   * rejected (legacy-spaces, in this transaction).
   */
  async ban(manager: EntityManager, spaceId: string, did: string, byDid: string): Promise<SpaceMembership> {
    const now = this.clock.now();
    const membership =
      (await this.memberships.find(spaceId, did, manager)) ??
      this.memberships.create({ spaceId, memberDid: did, joinedAt: null, statusMessage: null });
    Object.assign(membership, { role: 'member', status: 'banned', bannedAt: now, bannedByDid: byDid });
    await this.memberships.save(membership, manager);
    await this.refreshCount(manager, spaceId);
    await this.events.emit(manager, new MemberBanned(spaceId, did, byDid));
    return membership;
  }

  /**
   * The spaces module's part of an account's erasure, inside its transaction
   * (docs/decisions/0196-what-an-erasure-removes-and-keeps.md): every membership row of the person
   * goes, a ban kept as the keyed hash of the DID only so it keeps refusing the DID
   * (docs/decisions/0193-bans-of-erased-people-kept-as-keyed-hashes.md), the bans they gave
   * stop naming them, and the spaces they were active in are recounted. No membership event: the
   * erasure removes the person's group rows, applications and notifications itself, and nobody is
   * told that they left. Idempotent.
   */
  async eraseMember(manager: EntityManager, did: string): Promise<ErasedRows> {
    const erased = await this.memberships.eraseOf(did, this.hashOf(did), manager);
    for (const spaceId of [...new Set(erased.activeIn)].sort()) await this.refreshCount(manager, spaceId);
    return { space_memberships: erased.erased, space_erased_bans: erased.bans };
  }

  /**
   * Whether the space bans `did` as an erased person (by the keyed hash of the DID: a person who
   * was banned, erased, and comes back with the same DID is still refused;
   * docs/decisions/0193-bans-of-erased-people-kept-as-keyed-hashes.md).
   */
  erasedBan(manager: EntityManager, spaceId: string, did: string): Promise<boolean> {
    return this.memberships.erasedBan(spaceId, this.hashOf(did), manager);
  }

  /** Lifts the ban of an erased person with this DID: whether there was one. */
  liftErasedBan(manager: EntityManager, spaceId: string, did: string): Promise<boolean> {
    return this.memberships.liftErasedBan(spaceId, this.hashOf(did), manager);
  }

  private hashOf(did: string): string {
    return erasedBanHash(this.config.ERASED_BAN_SECRET, did);
  }

  /** Recounts active members (exact under the row lock) and, for a join, records the activity. */
  async refreshCount(manager: EntityManager, spaceId: string, activityAt?: Date): Promise<void> {
    await this.spaces.refreshCount(spaceId, activityAt, manager);
  }
}
