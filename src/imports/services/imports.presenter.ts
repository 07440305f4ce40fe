import { formatEntityId } from '../../common/ids/entity-id';
import { SpaceImportRecord } from '../dto/space-import.dto';
import { SpaceImport } from '../entities/space-import.entity';

/** An import as its owner sees it: the new space once done, the reason once failed. */
export function presentSpaceImport(row: SpaceImport): SpaceImportRecord {
  return {
    id: formatEntityId('import', row.id),
    state: row.state,
    ...(row.state === 'done' && row.spaceId ? { spaceId: formatEntityId('space', row.spaceId) } : {}),
    ...(row.state === 'failed' ? { failure: row.failureReason ?? 'The import could not be completed' } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}
