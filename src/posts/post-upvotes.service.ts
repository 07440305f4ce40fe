import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { RequestPrincipal } from '../common/auth/request-authenticator';
import { Clock } from '../common/clock/clock';
import { DomainEvents } from '../infrastructure/events/domain-events.service';
import { UpvoteResponse } from './dto/post-records.dto';
import { PostUpvoted } from './events/post-events';
import { PostAccess } from './post-access.service';

/** Adds the upvote and bumps the counter only when the row is new, in one statement. */
const UPVOTE_SQL = `
WITH inserted AS (
  INSERT INTO post_upvotes (post_id, voter_did, created_at) VALUES ($1, $2, $3)
  ON CONFLICT DO NOTHING RETURNING post_id
), bumped AS (
  UPDATE posts SET upvote_count = upvote_count + 1
  WHERE id = $1 AND EXISTS (SELECT 1 FROM inserted) RETURNING upvote_count
)
SELECT COALESCE((SELECT upvote_count FROM bumped), (SELECT upvote_count FROM posts WHERE id = $1)) AS count,
       EXISTS (SELECT 1 FROM inserted) AS changed`;

/** Removes the upvote and lowers the counter (never below zero) only when a row went. */
const WITHDRAW_SQL = `
WITH removed AS (
  DELETE FROM post_upvotes WHERE post_id = $1 AND voter_did = $2 RETURNING post_id
), lowered AS (
  UPDATE posts SET upvote_count = GREATEST(upvote_count - 1, 0)
  WHERE id = $1 AND EXISTS (SELECT 1 FROM removed) RETURNING upvote_count
)
SELECT COALESCE((SELECT upvote_count FROM lowered), (SELECT upvote_count FROM posts WHERE id = $1)) AS count`;

/**
 * PUT/DELETE …/posts/{postId}/upvote (api-spec.md "Rules for writes" 7): idempotent; PUT always
 * answers upvoted true, DELETE false, with the post's count. The caller writes as a member
 * (Authentication item 8) and must be able to read the post, else the one 404.
 */
@Injectable()
export class PostUpvotesService {
  constructor(
    private readonly access: PostAccess,
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  async set(
    principal: RequestPrincipal,
    spaceRef: string,
    postId: string,
    upvoted: boolean,
  ): Promise<UpvoteResponse> {
    const writer = await this.access.writer(principal, spaceRef, 'write:upvotes');
    const post = await this.access.postReadableByWriter(writer, postId);
    if (!upvoted) {
      const rows = (await this.dataSource.query(WITHDRAW_SQL, [post.id, writer.did])) as {
        count: number | null;
      }[];
      return { upvoted, upvoteCount: Math.max(0, Number(rows[0]?.count ?? 0)) };
    }
    const count = await this.dataSource.transaction(async (manager) => {
      const [row] = (await manager.query(UPVOTE_SQL, [post.id, writer.did, this.clock.now()])) as {
        count: number | null;
        changed: boolean;
      }[];
      if (row?.changed) {
        await this.events.emit(manager, new PostUpvoted(post.spaceId, post.id, post.authorDid, writer.did));
      }
      return row?.count ?? 0;
    });
    return { upvoted, upvoteCount: Math.max(0, Number(count)) };
  }
}
