import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ErasedRows } from '../../common/erasure/erased-rows';
import { ApplicationErasureService } from '../../legacy-spaces';
import { CommentErasureService } from '../../comments';
import { ExportErasureService } from '../../exports';
import { ImportErasureService } from '../../imports';
import { IdempotencyStore } from '../../infrastructure/idempotency/idempotency-store';
import { KeyProofErasureService } from '../../key-proof';
import { MediaErasureService } from '../../media';
import { GroupMembershipErasureService } from '../../memberships';
import { NotificationErasureService } from '../../notifications';
import { PostErasureService } from '../../posts';
import { MembershipWritesService } from '../../spaces';
import { AccountErasureService } from '../../users';

/** How many due erasures one sweep takes on (each its own transaction). */
const SWEEP_BATCH = 100;

/** What one sweep did. */
export interface ErasureSweep {
  erased: number;
  failed: number;
}

/**
 * Carries out the erasures that are due (docs/decisions/0197-one-transaction-per-erasure-driven-by-a-sweep.md):
 * each person in one transaction that locks their account while its erasure is still due, then has
 * every owning module erase its own rows through its exported service (no module touches
 * another's tables), the users module last (the handle becomes free). A failure rolls the whole
 * person back, to be taken again by the next sweep; a finished erasure leaves no account, so a
 * second run finds nothing: idempotent.
 */
@Injectable()
export class AccountErasuresService {
  private readonly logger = new Logger(AccountErasuresService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly accounts: AccountErasureService,
    private readonly spaces: MembershipWritesService,
    private readonly groups: GroupMembershipErasureService,
    private readonly applications: ApplicationErasureService,
    private readonly posts: PostErasureService,
    private readonly comments: CommentErasureService,
    private readonly notifications: NotificationErasureService,
    private readonly keyProofs: KeyProofErasureService,
    private readonly idempotency: IdempotencyStore,
    private readonly media: MediaErasureService,
    private readonly exports: ExportErasureService,
    private readonly imports: ImportErasureService,
  ) {}

  /** Erases every account whose erasure is due now, up to a batch; failures are counted and retried later. */
  async sweep(): Promise<ErasureSweep> {
    const result: ErasureSweep = { erased: 0, failed: 0 };
    for (const did of await this.accounts.due(SWEEP_BATCH)) {
      try {
        if (await this.erase(did)) result.erased += 1;
      } catch (error) {
        result.failed += 1;
        this.logger.error({ err: error }, 'account erasure failed; the next sweep retries it');
      }
    }
    return result;
  }

  /** Erases one person if their erasure is still due; false when it is not (restored, or done). */
  private async erase(did: string): Promise<boolean> {
    const at = this.clock.now();
    await this.accounts.withdrawProfile(did);
    const erased = await this.dataSource.transaction(async (manager) => {
      const account = await this.accounts.lockDue(manager, did);
      if (!account) return null;
      const rows: ErasedRows[] = [];
      rows.push(await this.groups.erase(manager, did));
      rows.push(await this.applications.erase(manager, did));
      rows.push(await this.spaces.eraseMember(manager, did));
      rows.push(await this.comments.erase(manager, did, at));
      const posts = await this.posts.erase(manager, did, at);
      rows.push(posts.erased);
      rows.push(await this.notifications.erase(manager, did));
      rows.push(await this.keyProofs.erase(manager, did));
      rows.push(await this.idempotency.eraseOf(manager, did));
      rows.push(await this.exports.erase(manager, did, at));
      const imports = await this.imports.erase(manager, did);
      rows.push(imports.erased);
      rows.push(await this.accounts.eraseOwn(manager, account));
      // Last: the person's own references (avatar, attachments) are gone by now, so what still
      // names one of their uploads is a space's (0192-an-erasure-takes-the-persons-media-and-invites.md).
      rows.push(await this.media.erase(manager, did));
      return {
        account,
        chained: posts.chained,
        importArchives: imports.archiveKeys,
        tables: Object.assign({}, ...rows) as ErasedRows,
      };
    });
    if (!erased) return false;
    // The audit line (docs/decisions/0194-erasure-audit-lines-and-rate-limits.md): which account,
    // when, and the rows deleted or anonymized by table; no DID, no content.
    this.logger.log(
      {
        audit: 'account.erasure.done',
        account: erased.account.id,
        at: at.toISOString(),
        tables: erased.tables,
      },
      'account erased',
    );
    await this.posts.settle(erased.chained);
    await this.exports.settle();
    await this.imports.settle(erased.importArchives);
    return true;
  }
}
