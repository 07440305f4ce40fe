import { formatEntityId } from '../../common/ids/entity-id';
import { GroupRecord } from '../dto/membership-records.dto';
import { SpaceGroup } from '../entities/space-group.entity';

/** A group as the administration routes answer it. */
export function toGroupRecord(group: SpaceGroup, memberCount: number): GroupRecord {
  return {
    id: formatEntityId('group', group.id),
    did: group.did,
    spaceId: formatEntityId('space', group.spaceId),
    name: group.name,
    description: group.description,
    color: group.color,
    memberCount,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}
