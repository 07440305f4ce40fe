import { formatEntityId } from '../../common/ids/entity-id';
import { ExportRecord } from '../dto/export.dto';
import { Export } from '../entities/export.entity';

/** An export as its owner sees it; `url` only for a ready one (signed by the caller). */
export function presentExport(row: Export, url?: string): ExportRecord {
  return {
    id: formatEntityId('export', row.id),
    state: row.state,
    createdAt: row.createdAt.toISOString(),
    ...(row.expiresAt && (row.state === 'ready' || row.state === 'expired')
      ? { expiresAt: row.expiresAt.toISOString() }
      : {}),
    ...(url ? { url } : {}),
  };
}
