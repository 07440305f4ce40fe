import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Of the posts $1, those the person $2 reads now as an active member of their space: the post
 * live, its topic live, and a `groups` topic only for one of the groups or the owner and admins
 * (PostAccess.verdict's member rules, for many posts in one statement). Topics, standings and
 * groups come from the views the spaces and memberships modules publish.
 */
const READABLE_BY_MEMBER = `SELECT p.id FROM posts p
  JOIN live_space_topics t ON t.id = p.topic_id
  JOIN active_space_members m ON m.space_id = p.space_id AND m.member_did = $2
 WHERE p.id = ANY($1::uuid[]) AND p.deleted_at IS NULL
   AND (t.access_kind <> 'groups' OR m.role IN ('owner', 'admin')
        OR EXISTS (SELECT 1 FROM group_members gm WHERE gm.member_did = $2
                   AND t.access_group_ids @> to_jsonb(gm.group_id::text)))`;

/**
 * Which posts a member reads now, many at once: for other modules that show what they recorded
 * about posts (the titles of announced posts in notifications) without naming posts' tables.
 */
@Injectable()
export class PostReadability {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The ids (uuid) among `postIds` that `did` reads now; no statement for none. */
  async readableByMember(did: string, postIds: readonly string[]): Promise<Set<string>> {
    if (postIds.length === 0) return new Set();
    const rows = (await this.dataSource.query(READABLE_BY_MEMBER, [[...new Set(postIds)], did])) as {
      id: string;
    }[];
    return new Set(rows.map((row) => row.id));
  }
}
