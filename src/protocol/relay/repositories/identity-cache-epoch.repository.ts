import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { defineStatements } from '../../../infrastructure/database/statements';

/** The identity cache epoch's fixed SQL (docs/decisions/0131-a-repository-per-module.md). */
export const IDENTITY_CACHE_EPOCH_STATEMENTS = defineStatements('IdentityCacheEpochRepository', {
  bump: "SELECT nextval('relay_identity_cache_epoch')",
  read: 'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS epoch FROM relay_identity_cache_epoch',
});

/**
 * The database's record of identity invalidations that could not be published over Redis
 * (docs/decisions/0105-identity-cache-missed-invalidations.md): a sequence, bumped by the replica whose
 * publish failed and read by every replica before it trusts its cache. A sequence, because its
 * bump commits at once whatever transaction is open and its read is one page.
 */
@Injectable()
export class IdentityCacheEpochRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Marks every replica's cached identity state as possibly stale. */
  async bump(): Promise<void> {
    await this.dataSource.query(IDENTITY_CACHE_EPOCH_STATEMENTS.bump);
  }

  /** The current epoch (0 before the first bump). */
  async read(): Promise<string> {
    const [row] = await this.dataSource.query<{ epoch: string }[]>(IDENTITY_CACHE_EPOCH_STATEMENTS.read);
    return String(row.epoch);
  }
}
