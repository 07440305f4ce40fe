import type { EntityManager } from 'typeorm';

/**
 * The per-space storage figure (`media_space_usage`, docs/decisions/0114-media-upload-quota.md), written
 * on the transaction of the media write that stores or drops bytes, so the figure and the rows
 * never disagree.
 */

/** A space's uploads gained `bytes` (an upload's bytes were stored); legacy uploads have no space. */
export async function addStoredBytes(
  manager: EntityManager,
  spaceId: string | null,
  bytes: number,
): Promise<void> {
  if (spaceId === null || bytes === 0) return;
  await manager.query(
    'INSERT INTO media_space_usage (space_id, stored_bytes) VALUES ($1, $2) ' +
      'ON CONFLICT (space_id) DO UPDATE SET stored_bytes = media_space_usage.stored_bytes + EXCLUDED.stored_bytes',
    [spaceId, bytes],
  );
}

/** The spaces of these media lose their stored bytes (the media failed after their bytes were stored). */
export async function dropStoredBytesOf(manager: EntityManager, mediaIds: string[]): Promise<void> {
  if (mediaIds.length === 0) return;
  await manager.query(
    'UPDATE media_space_usage SET stored_bytes = media_space_usage.stored_bytes - dropped.bytes ' +
      'FROM (SELECT space_id, SUM(content_length) AS bytes FROM media ' +
      'WHERE id = ANY($1::uuid[]) AND space_id IS NOT NULL AND content_length IS NOT NULL GROUP BY space_id) dropped ' +
      'WHERE media_space_usage.space_id = dropped.space_id',
    [mediaIds],
  );
}
