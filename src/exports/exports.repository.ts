import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { KeysetSeek } from '../common/pagination/keyset';
import { defineStatements } from '../infrastructure/database/statements';
import { Export } from './entities/export.entity';

/**
 * The exports module's fixed SQL (docs/decisions/0131-a-repository-per-module.md), written to
 * docs/queries/exports.sql by `npm run build && npm run queries:write`.
 */
export const EXPORTS_STATEMENTS = defineStatements('ExportsRepository', {
  /** A page of an owner's rows, newest first ($1 owner, $2 rows to read, $3 the cursor's id). */
  pageOfOwner: {
    first: 'SELECT id, owner_did, created_at FROM exports WHERE owner_did = $1 ORDER BY id DESC LIMIT $2',
    after:
      'SELECT id, owner_did, created_at FROM exports WHERE owner_did = $1 AND id < $3 ORDER BY id DESC LIMIT $2',
    before:
      'SELECT id, owner_did, created_at FROM exports WHERE owner_did = $1 AND id > $3 ORDER BY id ASC LIMIT $2',
  },
});

interface ExportRow {
  id: string;
  owner_did: string;
  created_at: Date;
}

const exportOf = (row: ExportRow): Export => ({
  id: row.id,
  ownerDid: row.owner_did,
  createdAt: row.created_at,
});

/** Every statement on `exports`; methods take the caller's transaction as their last argument. */
@Injectable()
export class ExportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One row by its key: TypeORM's repository API (record 0131). */
  async insert(row: Export, runner: EntityManager = this.dataSource.manager): Promise<void> {
    await runner.insert(Export, row);
  }

  /** The rows of a keyset page (common/pagination/keyset.ts) of `ownerDid`'s rows. */
  async pageOfOwner(
    ownerDid: string,
    seek: KeysetSeek,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Export[]> {
    const { pageOfOwner } = EXPORTS_STATEMENTS;
    const rows = seek.values
      ? await runner.query<ExportRow[]>(seek.backward ? pageOfOwner.before : pageOfOwner.after, [
          ownerDid,
          seek.take,
          seek.values[0],
        ])
      : await runner.query<ExportRow[]>(pageOfOwner.first, [ownerDid, seek.take]);
    return rows.map(exportOf);
  }
}
