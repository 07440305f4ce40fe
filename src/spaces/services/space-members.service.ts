import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { conflict, forbidden, notFound } from '../../common/errors/api-error';
import { formatEntityId } from '../../common/ids/entity-id';
import { DomainEvents } from '../../infrastructure/events/domain-events.service';
import { MemberKicked, MemberRoleChanged } from '../events/membership.events';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { Page } from '../../common/pagination/page';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { BanRequest, ChangeRoleRequest, PersonalStatusRequest, SpaceIdBody } from '../dto/space-requests.dto';
import { BanRecord, JoinResultRecord, MemberRecord, ViewerRecord } from '../dto/space-records.dto';
import { SpaceMembership } from '../entities/space-membership.entity';
import { SpaceMembershipsRepository } from '../repositories/space-memberships.repository';
import { MembershipWritesService } from './membership-writes.service';
import { assertRepeats, isActive, SpaceContext } from '../domain/space-context';
import { SpaceAccessService } from './space-access.service';
import { toBanRecord, toMemberRecord } from './space-records.presenter';
import { isProtocolDid } from '../domain/space-rules';

/** The members listing's order: earliest joined first. */
const MEMBER_ORDER: KeysetColumn[] = [
  { expression: 'joined_at', direction: 'ASC' },
  { expression: 'member_did', direction: 'ASC' },
];
/** The bans listing's order: most recently banned first. */
const BAN_ORDER: KeysetColumn[] = [
  { expression: 'banned_at', direction: 'DESC' },
  { expression: 'member_did', direction: 'DESC' },
];

/** Joining open spaces, leaving, and the admins' member management (roles, kicks, bans). */
@Injectable()
export class SpaceMembersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly memberships: SpaceMembershipsRepository,
    private readonly access: SpaceAccessService,
    private readonly writes: MembershipWritesService,
    private readonly cursors: CursorCodec,
    private readonly events: DomainEvents,
  ) {}

  /** Joins a public space whose join mode is open; joining again answers the same. */
  async join(principal: RequestPrincipal, pathId: string, request: SpaceIdBody): Promise<JoinResultRecord> {
    assertRepeats('id', request.id, pathId);
    const context = await this.access.resolve(pathId, principal.did);
    if (context.membership?.status === 'banned') throw forbidden('Banned from this space');
    if (!isActive(context) && !(context.space.isPublic && context.space.joinMode === 'open'))
      throw forbidden('This space is not open to join');
    const membership = await this.dataSource.transaction(async (manager) => {
      const space = await this.access.lock(manager, context.space.id);
      if (!(space.isPublic && space.joinMode === 'open')) {
        const current = await this.memberships.find(space.id, principal.did, manager);
        if (current?.status === 'active') return current;
        throw forbidden('This space is not open to join');
      }
      return this.writes.admit(manager, space.id, principal.did);
    });
    return {
      spaceId: formatEntityId('space', context.space.id),
      status: 'member',
      role: membership.role,
      applicationId: null,
    };
  }

  /** Leaves the space; the owner cannot leave (the space would have no owner). */
  async leave(principal: RequestPrincipal, pathId: string): Promise<void> {
    const context = await this.access.resolve(pathId, principal.did);
    if (!isActive(context)) throw notFound();
    if (context.membership!.role === 'owner') throw conflict('The owner cannot leave the space');
    await this.dataSource.transaction(async (manager) => {
      await this.access.lock(manager, context.space.id);
      const membership = await this.activeMembership(manager, context, principal.did);
      await this.writes.end(manager, membership, 'left');
    });
  }

  /** Active members with their roles, earliest joined first. */
  async members(
    principal: RequestPrincipal,
    pathId: string,
    query: PaginationQueryDto,
  ): Promise<Page<MemberRecord>> {
    const context = await this.access.resolveMember(pathId, principal.did);
    const keyset = {
      listing: 'legacy-space-members',
      columns: MEMBER_ORDER,
      keyOf: (row: SpaceMembership) => [row.joinedAt!.toISOString(), row.memberDid],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.memberships.membersPage(context.space.id, seek), keyset);
    return {
      items: page.rows.map(toMemberRecord),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** Promotes to admin or demotes to member; the owner's role never changes. */
  async changeRole(
    principal: RequestPrincipal,
    pathId: string,
    memberDid: string,
    request: ChangeRoleRequest,
  ): Promise<MemberRecord> {
    assertRepeats('id', request.id, pathId);
    assertRepeats('memberId', request.memberId, memberDid);
    const context = await this.access.resolveAdmin(pathId, principal.did);
    return this.dataSource.transaction(async (manager) => {
      await this.access.lock(manager, context.space.id);
      const target = await this.activeMembership(manager, context, memberDid);
      if (target.role === 'owner') throw forbidden('The owner’s role cannot change');
      if (target.role !== request.role) {
        target.role = request.role;
        await this.memberships.save(target, manager);
        await this.events.emit(
          manager,
          new MemberRoleChanged(context.space.id, memberDid, request.role, principal.did),
        );
      }
      return toMemberRecord(target);
    });
  }

  /** Removes a member, who may come back; admins cannot kick the owner or themselves. */
  async kick(principal: RequestPrincipal, pathId: string, memberDid: string): Promise<void> {
    const context = await this.access.resolveAdmin(pathId, principal.did);
    await this.dataSource.transaction(async (manager) => {
      await this.access.lock(manager, context.space.id);
      const target = await this.activeMembership(manager, context, memberDid);
      this.assertModeratable(target.role, memberDid, principal.did);
      await this.writes.end(manager, target, 'removed');
      await this.events.emit(manager, new MemberKicked(context.space.id, memberDid, principal.did));
    });
  }

  /** Bans a person (member or not) from the space; banning again answers the same record. */
  async ban(
    principal: RequestPrincipal,
    pathId: string,
    memberDid: string,
    request: BanRequest,
  ): Promise<BanRecord> {
    assertRepeats('id', request.id, pathId);
    assertRepeats('memberId', request.memberId, memberDid);
    const context = await this.access.resolveAdmin(pathId, principal.did);
    if (!isProtocolDid(memberDid)) throw notFound();
    return this.dataSource.transaction(async (manager) => {
      await this.access.lock(manager, context.space.id);
      const current = await this.memberships.find(context.space.id, memberDid, manager);
      if (current?.status === 'banned') return toBanRecord(current);
      this.assertModeratable(current?.status === 'active' ? current.role : null, memberDid, principal.did);
      return toBanRecord(await this.writes.ban(manager, context.space.id, memberDid, principal.did));
    });
  }

  /** Admins: banned people, most recently banned first. */
  async bans(
    principal: RequestPrincipal,
    pathId: string,
    query: PaginationQueryDto,
  ): Promise<Page<BanRecord>> {
    const context = await this.access.resolveAdmin(pathId, principal.did);
    const keyset = {
      listing: 'legacy-space-bans',
      columns: BAN_ORDER,
      keyOf: (row: SpaceMembership) => [row.bannedAt!.toISOString(), row.memberDid],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.memberships.bansPage(context.space.id, seek), keyset);
    return {
      items: page.rows.map(toBanRecord),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** Lifts a ban: the person may join again through an invite, an open space or an application. */
  async unban(principal: RequestPrincipal, pathId: string, memberDid: string): Promise<void> {
    const context = await this.access.resolveAdmin(pathId, principal.did);
    if (!isProtocolDid(memberDid)) throw notFound();
    await this.dataSource.transaction(async (manager) => {
      await this.access.lock(manager, context.space.id);
      const target = await this.memberships.find(context.space.id, memberDid, manager);
      // A ban the person's erasure kept as a hash is lifted by their DID too
      // (docs/decisions/0193-bans-of-erased-people-kept-as-keyed-hashes.md).
      const lifted = await this.writes.liftErasedBan(manager, context.space.id, memberDid);
      if (target?.status !== 'banned') {
        if (lifted) return;
        throw notFound();
      }
      Object.assign(target, { status: 'removed', bannedAt: null, bannedByDid: null });
      await this.memberships.save(target, manager);
    });
  }

  /** The caller's relationship to the space. */
  async viewer(principal: RequestPrincipal, pathId: string): Promise<ViewerRecord> {
    const context = await this.access.resolve(pathId, principal.did);
    const member = isActive(context);
    const isBanned = context.membership?.status === 'banned';
    const pending = !member && (await this.access.hasApplied(context.space.id, principal.did, 'pending'));
    return {
      status: member ? 'member' : pending ? 'pending' : null,
      role: member ? context.membership!.role : null,
      canApply: !member && !pending && !isBanned && context.space.joinMode === 'application',
      isBanned,
    };
  }

  /** Sets (or with null or empty text, clears) the caller's personal status message in the space. */
  async setStatus(
    principal: RequestPrincipal,
    pathId: string,
    request: PersonalStatusRequest,
  ): Promise<MemberRecord> {
    assertRepeats('id', request.id, pathId);
    const context = await this.access.resolveMember(pathId, principal.did);
    const membership = context.membership!;
    membership.statusMessage = request.status || null;
    await this.memberships.updateStatusMessage(
      membership.spaceId,
      membership.memberDid,
      membership.statusMessage,
    );
    return toMemberRecord(membership);
  }

  private async activeMembership(
    manager: EntityManager,
    context: SpaceContext,
    did: string,
  ): Promise<SpaceMembership> {
    if (!isProtocolDid(did) && did !== context.did) throw notFound();
    const membership = await this.memberships.find(context.space.id, did, manager);
    if (membership?.status !== 'active') throw notFound();
    return membership;
  }

  /** Nobody moderates the owner, and an admin does not kick or ban themselves (they leave). */
  private assertModeratable(role: string | null, targetDid: string, callerDid: string): void {
    if (role === 'owner') throw forbidden('The owner cannot be removed');
    if (targetDid === callerDid) throw forbidden('Admins cannot remove themselves; leave instead');
  }
}
