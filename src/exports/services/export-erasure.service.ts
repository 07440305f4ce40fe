import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ErasedRows } from '../../common/erasure/erased-rows';
import { ExportsRepository } from '../exports.repository';
import { ExportsService } from './exports.service';

/**
 * The exports module's part of an account's erasure
 * (docs/decisions/0214-an-erasure-removes-the-persons-exports.md): inside the erasure's
 * transaction, the person's exports without an archive are deleted (a build still running then
 * finds no row and removes what it stored) and the ready ones lose their owner and expire at once;
 * after commit the sweep deletes their archives, and the hourly one retries whatever failed.
 */
@Injectable()
export class ExportErasureService {
  private readonly logger = new Logger(ExportErasureService.name);

  constructor(
    private readonly repository: ExportsRepository,
    private readonly exports: ExportsService,
  ) {}

  erase(manager: EntityManager, did: string, at: Date): Promise<ErasedRows> {
    return this.repository.eraseOwner(did, at, manager);
  }

  /** After commit: deletes the archives the erasure expired; a failure is left to the hourly sweep. */
  async settle(): Promise<void> {
    try {
      await this.exports.sweep();
    } catch (error) {
      this.logger.warn({ err: error }, 'export archives of an erasure not deleted yet; the sweep retries');
    }
  }
}
