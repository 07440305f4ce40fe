import type { Pool, PoolClient } from 'pg';
import { v7 as uuidv7 } from 'uuid';
import { JOB_OUTBOX_STATEMENTS } from '../../src/infrastructure/jobs/job-outbox.repository';
import { withTitle } from '../../src/notifications/domain/notification-titles';
import { NOTIFICATIONS_STATEMENTS } from '../../src/notifications/notifications.repository';
import { wireId } from './context';
import { POST_SUBJECT, READERS_OF_POST } from './notify';
import { authorsOf } from './rows';

/**
 * PostAnnouncementsSubscriber (`notifications.announce-post`), bare: after a post's write commits, its
 * announcement to the members who read it runs in the same process, one at a time, as the app's
 * in-process job queue runs it when there is no Redis (so both sides of a post write do this work,
 * and both count its statements in verify): the fan-out row, then per batch of 1,000 readers one
 * transaction with the progress lock, the post, its readers, the author's name, the notifications
 * and the progress. The statements are the app's (PostReadersRepository's, NotificationsRepository's).
 */

const BATCH = 1000;
const OUTBOX_LEASE_MS = 60_000;
const KIND = 'notify.post.created';

let queue: Promise<void> = Promise.resolve();

/**
 * The announcement's row in the job outbox, in the post's transaction (JobOutbox.record: the app
 * queues it after commit; its lease is JOB_OUTBOX_LEASE_MS's default). Its id.
 */
export async function recordAnnouncement(client: PoolClient, postId: string, at: Date): Promise<string> {
  const { rows } = await client.query<{ id: string }>(JOB_OUTBOX_STATEMENTS.record, [
    'notifications.announce-post',
    { postId, at: at.toISOString() },
    postId,
    null,
    at,
    new Date(at.getTime() + OUTBOX_LEASE_MS),
    at,
  ]);
  return rows[0].id;
}

/** Queues the announcement of a committed post; failures are logged, as a failed job would be. */
export function announcePost(pool: Pool, postId: string, at: Date, outboxId: string): void {
  queue = queue
    .then(async () => {
      await announce(pool, postId, at);
      // The job's row goes once its handler succeeded (JobOutbox.handle).
      await pool.query(JOB_OUTBOX_STATEMENTS.delete, [outboxId]);
    })
    .catch((error: unknown) => console.error(`twin announcement of ${postId}: ${String(error)}`));
}

async function announce(pool: Pool, postId: string, at: Date): Promise<void> {
  const key = `${KIND}:${postId}`;
  await pool.query(NOTIFICATIONS_STATEMENTS.fanout.begin, [key]);
  for (let finished = false; !finished;) finished = await announceBatch(pool, key, postId, at);
}

/** One batch in one transaction; true when the announcement is done. */
async function announceBatch(pool: Pool, key: string, postId: string, at: Date): Promise<boolean> {
  const client = await pool.connect();
  try {
    await client.query('START TRANSACTION');
    const { rows: progress } = await client.query<{ after_did: string | null; done_at: Date | null }>(
      NOTIFICATIONS_STATEMENTS.fanout.progress,
      [key],
    );
    if (!progress[0] || progress[0].done_at) {
      await client.query('COMMIT');
      return true;
    }
    const after = progress[0].after_did;
    const { rows: posts } = await client.query<{
      id: string;
      space_id: string;
      author_did: string;
      display_title: string | null;
    }>(POST_SUBJECT, [postId]);
    const post = posts[0];
    const batch = post
      ? (
          await client.query<{ did: string }>(READERS_OF_POST, [
            post.space_id,
            post.author_did,
            null,
            false,
            after,
            post.id,
            BATCH,
          ])
        ).rows.map((row) => row.did)
      : [];
    if (post && batch.length > 0) {
      // The app names the author outside the batch's transaction (PeopleNamesService over the pool).
      const record = (await authorsOf(pool, [post.author_did])).get(post.author_did);
      const author = { did: post.author_did, displayName: record?.displayName ?? record?.username ?? null };
      const id = wireId('post', post.id);
      const scope = {
        type: 'post',
        preview: {
          id,
          title: withTitle(`${author.displayName ?? author.did} posted`, post.display_title),
          createdBy: author,
          createdAt: at.toISOString(),
        },
      };
      await client.query(NOTIFICATIONS_STATEMENTS.write, [
        batch.map(() => uuidv7()),
        batch,
        KIND,
        post.space_id,
        'members',
        `${KIND}:${post.space_id}`,
        JSON.stringify(scope),
        JSON.stringify({ id, title: post.display_title, createdBy: author }),
        at,
        'post',
        post.id,
      ]);
    }
    const done = batch.length < BATCH;
    await client.query(NOTIFICATIONS_STATEMENTS.fanout.advance, [
      key,
      batch.at(-1) ?? after,
      done ? new Date() : null,
    ]);
    await client.query('COMMIT');
    return done;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
