import { formatEntityId } from '../../common/ids/entity-id';
import { ExportRecord } from '../dto/export.dto';
import { Export } from '../entities/export.entity';

/** A row as clients see it: the wire id, ISO timestamps. */
export function presentExport(row: Export): ExportRecord {
  return { id: formatEntityId('export', row.id), createdAt: row.createdAt.toISOString() };
}
