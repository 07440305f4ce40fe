import { Injectable } from '@nestjs/common';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { ExportListing } from '../dto/export.dto';
import { Export } from '../entities/export.entity';
import { ExportsRepository } from '../exports.repository';
import { presentExport } from './exports.presenter';

/** Newest first: ids are UUIDv7. */
const ORDER: KeysetColumn[] = [{ expression: 'id', direction: 'DESC' }];

/** The exports module's use cases. */
@Injectable()
export class ExportsService {
  constructor(
    private readonly repository: ExportsRepository,
    private readonly cursors: CursorCodec,
  ) {}

  /** A page of the caller's exports. */
  async list(ownerDid: string, query: PaginationQueryDto): Promise<ExportListing> {
    const keyset = {
      listing: 'exports',
      columns: ORDER,
      keyOf: (row: Export) => [row.id],
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.repository.pageOfOwner(ownerDid, seek), keyset);
    return {
      items: page.rows.map(presentExport),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }
}
