import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ErasedRows } from '../../common/erasure/erased-rows';
import { ImportArchivesService } from '../../media';
import { ImportsRepository } from '../imports.repository';

/**
 * The imports module's part of an account's erasure (issue 35 item 2): inside the erasure's
 * transaction the person's imports are deleted, whatever their state (a failed one's reason names
 * their archive's files; none is running, as the erasure waited out its grace period); after commit
 * the archives they still held are removed from the store
 * (docs/decisions/0237-a-space-import-streams-its-archive-through-the-store.md). The spaces they
 * created are the spaces module's (their owner cannot be erased, docs/decisions/0196).
 */
@Injectable()
export class ImportErasureService {
  private readonly logger = new Logger(ImportErasureService.name);

  constructor(
    private readonly repository: ImportsRepository,
    private readonly archives: ImportArchivesService,
  ) {}

  async erase(manager: EntityManager, did: string): Promise<{ erased: ErasedRows; archiveKeys: string[] }> {
    const { count, archiveKeys } = await this.repository.eraseOwner(did, manager);
    return { erased: { imports: count }, archiveKeys };
  }

  /** After commit: removes the archives; one that fails is logged, left in the store unnamed. */
  async settle(archiveKeys: readonly string[]): Promise<void> {
    for (const key of archiveKeys) {
      try {
        await this.archives.remove(key);
      } catch (error) {
        this.logger.warn({ err: error, key }, 'archive of an erased import not removed');
      }
    }
  }
}
