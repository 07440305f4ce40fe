import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { conflict, invalidRequest, notFound } from '../../common/errors/api-error';
import { AppConfig } from '../../config/app-config';
import { AccountDeactivationService, ContentPublisher } from '../../protocol';
import { SpaceDirectoryService } from '../../spaces';
import { EraseProfileRequest, ErasureScheduledResponse } from '../dto/account.dto';
import { UsersRepository } from '../users.repository';
import { ErasedRows } from '../../common/erasure/erased-rows';

const DAY_MS = 86_400_000;

/** An account locked for its erasure, inside the erasure's transaction. */
export interface ErasableAccount {
  id: string;
  did: string;
  avatarId: string | null;
}

/**
 * Erasure on request (docs/decisions/0195-erasure-scheduled-by-the-users-module.md): the users module
 * keeps when it is due (`users.erasure_due_at`), deactivates the account meanwhile, and erases its own
 * rows last in the erasure's transaction, which the account-erasure module drives.
 */
@Injectable()
export class AccountErasureService implements OnModuleInit {
  private readonly logger = new Logger(AccountErasureService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly publisher: ContentPublisher,
    private readonly spaces: SpaceDirectoryService,
    private readonly deactivations: AccountDeactivationService,
  ) {}

  /**
   * Proofs and credentials are verified by protocol, which cannot read users: it is told where a
   * pending erasure is read (docs/decisions/0191-a-pending-erasure-deactivates-as-a-delete.md).
   */
  onModuleInit(): void {
    this.deactivations.register((did) => this.users.erasurePending(did));
  }

  /** DELETE /profile: schedules the erasure after the grace period (again: the new time). */
  async schedule(
    principal: RequestPrincipal,
    request: EraseProfileRequest,
  ): Promise<ErasureScheduledResponse> {
    const account = await this.users.account('did', principal.did);
    if (!account) throw notFound();
    if (request.confirmHandle.toLowerCase() !== account.handle) {
      throw invalidRequest('Invalid request', [
        { path: 'confirmHandle', message: "confirmHandle must be the caller's handle" },
      ]);
    }
    // A space is not left without its owner: they transfer or delete it first, as Discord asks
    // (docs/decisions/0195-erasure-scheduled-by-the-users-module.md).
    const memberships = await this.spaces.memberSpacesOf(principal.did);
    if (memberships.some((membership) => membership.role === 'owner')) {
      throw conflict('Transfer or delete the spaces you own first');
    }
    const dueAt = new Date(this.clock.now().getTime() + this.config.ACCOUNT_ERASURE_GRACE_DAYS * DAY_MS);
    const scheduled = await this.users.scheduleErasure(principal.did, dueAt);
    if (!scheduled) throw notFound();
    // The audit line (docs/decisions/0194-erasure-audit-lines-and-rate-limits.md): who (the
    // account, not the DID), when, and when it falls due; nothing of the profile.
    this.logger.log(
      {
        audit: 'account.erasure.scheduled',
        account: account.id,
        at: this.clock.now().toISOString(),
        dueAt: scheduled.toISOString(),
      },
      'account erasure scheduled',
    );
    // Credentials it issued are refused and its streams close, on every replica, from now on.
    await this.deactivations.changed(principal.did);
    return { erasureScheduledAt: scheduled.toISOString() };
  }

  /** POST /profile/restore: cancels a scheduled erasure; 409 when none is scheduled. */
  async restore(principal: RequestPrincipal): Promise<void> {
    const cancelled = await this.users.cancelErasure(principal.did);
    if (cancelled) {
      this.logger.log(
        { audit: 'account.erasure.cancelled', account: cancelled, at: this.clock.now().toISOString() },
        'account erasure cancelled',
      );
      await this.deactivations.changed(principal.did);
      return;
    }
    if (!(await this.users.accountExists(principal.did))) throw notFound();
    throw conflict('No erasure is scheduled');
  }

  /** Up to `limit` DIDs whose erasure is due now. */
  due(limit: number): Promise<string[]> {
    return this.users.dueErasures(this.clock.now(), limit);
  }

  /**
   * Before the erasure's transaction: the public profile's content chain is retracted (the relay
   * deletes its document, keeps its operations) and forgotten, as making the profile private does.
   * Idempotent: once forgotten there is nothing to retract; a restore meanwhile leaves it private.
   */
  async withdrawProfile(did: string): Promise<void> {
    const account = await this.users.account('did', did);
    if (!account?.erasureDueAt || !account.profileContentId || !account.profileHeadCid) return;
    await this.publisher.retract({ contentId: account.profileContentId, headCid: account.profileHeadCid });
    await this.users.updateProfileChain(account.id, { profileContentId: null, profileHeadCid: null });
  }

  /** Locks the account of `did` in `manager`'s transaction if its erasure is still due, else null. */
  async lockDue(manager: EntityManager, did: string): Promise<ErasableAccount | null> {
    const row = await this.users.lockDueAccount(did, this.clock.now(), manager);
    return row ? { ...row, did } : null;
  }

  /** Erases the account's own rows (pins, the account): the handle becomes free. */
  eraseOwn(manager: EntityManager, account: ErasableAccount): Promise<ErasedRows> {
    return this.users.eraseAccount(account.id, manager);
  }
}
