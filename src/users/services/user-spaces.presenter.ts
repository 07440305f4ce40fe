import { formatEntityId } from '../../common/ids/entity-id';
import { memberCountSummary } from '../../spaces';
import { UserSpaceItem } from '../dto/pins.dto';
import { UserSpaceRow } from '../users.repository';

/** A user's spaces as the pin routes and the public reads answer them. */

const iso = (date: Date | string) => new Date(date).toISOString();

/** A space's count summary through the spaces module's own mapping. */
const countSummary = (memberCount: number): string => memberCountSummary({ memberCount });

/** api-spec.md "User public space item"; `pinMessage` only on pinned items (null when none). */
export function toItem(
  space: { id: string; did: string; domain: string; displayName: string | null; memberCount: number },
  pin: { pinMessage: string | null; pinnedAt: Date | string } | null,
  avatarUrl: string | null,
): UserSpaceItem {
  return {
    id: formatEntityId('space', space.id),
    did: space.did,
    domain: space.domain,
    displayName: space.displayName,
    avatarUrl,
    memberCountSummary: countSummary(space.memberCount),
    pinned: pin !== null,
    ...(pin ? { pinMessage: pin.pinMessage } : {}),
    pinnedAt: pin ? iso(pin.pinnedAt) : null,
  };
}

/** A space's avatar URL from the URLs read for its page. */
export const avatarOf = (avatarMediaId: string | null, avatars: Map<string, string>): string | null =>
  (avatarMediaId && avatars.get(avatarMediaId)) || null;

export const rowToItem = (row: UserSpaceRow, avatars: Map<string, string>): UserSpaceItem =>
  toItem(
    {
      id: row.id,
      did: row.did,
      domain: row.domain,
      displayName: row.display_name,
      memberCount: Number(row.member_count),
    },
    row.position === null ? null : { pinMessage: row.pin_message, pinnedAt: row.pinned_at! },
    avatarOf(row.avatar_media_id, avatars),
  );
