import { Injectable } from '@nestjs/common';
import { MediaLookupService } from '../../media';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Clock } from '../../common/clock/clock';
import { forbidden, notFound } from '../../common/errors/api-error';
import { formatEntityId, newUuid } from '../../common/ids/entity-id';
import { CreateInviteRequest, JoinByCodeRequest } from '../dto/legacy-requests.dto';
import {
  JoinResultRecord,
  SpaceView,
  MembershipWritesService,
  assertRepeats,
  SpaceAccessService,
  effectiveJoinMode,
  LIMITS,
  SpaceDirectoryService,
} from '../../spaces';
import { InvitePreviewRecord, InviteRecord } from '../dto/legacy-records.dto';
import { SpaceInvite } from '../entities/space-invite.entity';
import { SpaceApplicationsService } from './space-applications.service';
import { toInviteRecord } from './legacy-records.presenter';
import { LegacySpacesRepository } from '../legacy-spaces.repository';
import { grantCoversSpace } from '../../protocol';

const CODE_PATTERN = /^[A-Za-z0-9_-]{16,32}$/;

/** Invite links: one current invite per admin; a code admits while unrevoked, unexpired, with uses left. */
@Injectable()
export class SpaceInvitesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly legacy: LegacySpacesRepository,
    private readonly access: SpaceAccessService,
    private readonly writes: MembershipWritesService,
    private readonly applications: SpaceApplicationsService,
    private readonly clock: Clock,
    private readonly directory: SpaceDirectoryService,
    private readonly media: MediaLookupService,
  ) {}

  /** A fresh invite for the calling admin; their previous code stops admitting at once. */
  async create(
    principal: RequestPrincipal,
    pathId: string,
    request: CreateInviteRequest,
  ): Promise<InviteRecord> {
    assertRepeats('id', request.id, pathId);
    const context = await this.access.resolveAdmin(pathId, principal.did);
    const now = this.clock.now();
    const minutes = request.expiresInMinutes ?? LIMITS.inviteExpiresInMinutes;
    const invite = Object.assign(new SpaceInvite(), {
      id: newUuid(),
      spaceId: context.space.id,
      creatorDid: principal.did,
      code: randomBytes(16).toString('base64url'),
      maxUses: request.maxUses ?? LIMITS.inviteMaxUses,
      uses: 0,
      joinModeOverride: request.joinModeOverride ?? 'instant',
      expiresAt: new Date(now.getTime() + minutes * 60_000),
      revokedAt: null,
      createdAt: now,
    });
    await this.dataSource.transaction(async (manager) => {
      await this.access.lock(manager, context.space.id);
      await this.legacy.revokeInvitesOf(context.space.id, principal.did, this.clock.now(), manager);
      await this.legacy.insertInvite(invite, manager);
    });
    return toInviteRecord(invite);
  }

  /** The calling admin's invite while it still admits. */
  async mine(principal: RequestPrincipal, pathId: string): Promise<InviteRecord> {
    const context = await this.access.resolveAdmin(pathId, principal.did);
    const invite = await this.legacy.currentInvite(context.space.id, principal.did);
    if (!invite || !this.admits(invite)) throw notFound();
    return toInviteRecord(invite);
  }

  /** Revokes the calling admin's invite; nothing to revoke is fine too. */
  async revokeMine(principal: RequestPrincipal, pathId: string): Promise<void> {
    const context = await this.access.resolveAdmin(pathId, principal.did);
    await this.dataSource.transaction(async (manager) => {
      await this.access.lock(manager, context.space.id);
      await this.legacy.revokeInvitesOf(context.space.id, principal.did, this.clock.now(), manager);
    });
  }

  /** What a code leads to, for anyone holding it; a code that does not admit is the 404. */
  async preview(code: string, principal: RequestPrincipal | null): Promise<InvitePreviewRecord> {
    const { invite, space } = await this.admitting(code);
    const effective = effectiveJoinMode(invite.joinModeOverride, space.joinMode);
    const [membership, images] = await Promise.all([
      principal && tellsMembership(principal, space.did)
        ? this.directory.membershipOf(space.id, principal.did)
        : null,
      this.media.imageObjects([space.avatarMediaId, space.headerMediaId]),
    ]);
    const image = (id: string | null) => {
      const media = id ? images.get(id) : undefined;
      return media ? { url: media.url, width: media.width ?? null, height: media.height ?? null } : null;
    };
    const questions = space.applicationQuestions.map((q) => ({
      question: q.question,
      isRequired: q.isRequired,
    }));
    return {
      spaceId: formatEntityId('space', space.id),
      spaceDID: space.did,
      domain: space.domain,
      displayName: space.displayName,
      description: space.description,
      avatar: image(space.avatarMediaId),
      banner: image(space.headerMediaId),
      memberCount: space.memberCount,
      isPublic: space.isPublic,
      effectiveJoinMode: effective,
      applicationQuestions: effective === 'application' && questions.length > 0 ? questions : null,
      expiresAt: invite.expiresAt.toISOString(),
      userStatus: { isMember: membership?.status === 'active' },
    };
  }

  /**
   * Joins through a code: at once (instant), or by filing an application with `responses`. A member
   * joining again, or an applicant already pending, gets the same answer without using the code up.
   */
  async join(
    principal: RequestPrincipal,
    code: string,
    request: JoinByCodeRequest,
  ): Promise<JoinResultRecord> {
    assertRepeats('code', request.code, code);
    const found = await this.admitting(code);
    return this.dataSource.transaction(async (manager) => {
      const space = await this.access.lock(manager, found.space.id);
      const invite = await this.legacy.findInvite(found.invite.id, manager);
      if (!invite || !this.admits(invite)) throw notFound();
      const spaceId = formatEntityId('space', space.id);
      const membership = await this.directory.membershipOf(space.id, principal.did, manager);
      if (membership?.status === 'banned') throw forbidden('Banned from this space');
      if (membership?.status === 'active')
        return { spaceId, status: 'member', role: membership.role, applicationId: null };
      if (effectiveJoinMode(invite.joinModeOverride, space.joinMode) === 'instant') {
        const admitted = await this.writes.admit(manager, space.id, principal.did);
        await this.legacy.countInviteUse(invite.id, manager);
        return { spaceId, status: 'member', role: admitted.role, applicationId: null };
      }
      const { application, existing } = await this.applications.submit(
        manager,
        space,
        principal.did,
        request.responses ?? [],
        invite.id,
      );
      if (!existing) await this.legacy.countInviteUse(invite.id, manager);
      return {
        spaceId,
        status: 'pending',
        role: null,
        applicationId: formatEntityId('application', application.id),
      };
    });
  }

  private async admitting(code: string): Promise<{ invite: SpaceInvite; space: SpaceView }> {
    if (!CODE_PATTERN.test(code)) throw notFound();
    const invite = await this.legacy.inviteByCode(code);
    if (!invite || !this.admits(invite)) throw notFound();
    const space = await this.directory.findById(invite.spaceId);
    if (!space) throw notFound();
    return { invite, space };
  }

  private admits(invite: SpaceInvite): boolean {
    return (
      invite.revokedAt === null &&
      invite.uses < invite.maxUses &&
      invite.expiresAt.getTime() > this.clock.now().getTime()
    );
  }
}

/**
 * Whether the caller may learn their own standing in the space from a preview: a bare identity
 * proof, or a credential covering this space with `read:posts` (the member view) or holding
 * `read:memberships`. A credential naming only other spaces reads as anyone (api-spec.md
 * "Authentication" item 6).
 */
function tellsMembership(principal: RequestPrincipal, spaceDid: string): boolean {
  const credential = principal.credential;
  return (
    !credential ||
    credential.accountScopes.includes('read:memberships') ||
    grantCoversSpace(credential, spaceDid, 'read:posts')
  );
}
