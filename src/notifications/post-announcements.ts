import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { AppConfig } from '../config/app-config';
import { formatEntityId } from '../common/ids/entity-id';
import { JobQueue } from '../infrastructure/jobs/job-queue';
import { ContentAudience } from './content-audience';
import { NotificationWriter } from './notification-writer';
import { nameOf, PeopleNames } from './people-names';
import { withTitle } from './notification-titles';

export const ANNOUNCE_POST = 'notifications.announce-post';

/** Recipients written per transaction. */
export const ANNOUNCE_BATCH = 1000;

/**
 * Between two batches the job rests nine times as long as the last batch took, so a large
 * announcement uses at most about a tenth of one database connection and requests keep the rest
 * of the machine. 50,000 members are 50 batches; a batch that updates unread notifications takes
 * about 50 ms on the 1M-post bench database, so they are all told within about 25 s.
 */
const REST_PER_BATCH = 9;

interface AnnounceJob {
  postId: string;
  /** When the post was published (the activity's time), ISO. */
  at: string;
}

/**
 * `notify.post.created` (design.md §14): a published post is announced to the active members who
 * read it, except its author, by a background job, so the author's POST does not grow with the
 * space. The job walks recipients in DID order, `ANNOUNCE_BATCH` per transaction, recording how far
 * it came in `notification_fanouts` in the same transaction: a retried job resumes after the last
 * recipient written and a finished one does nothing (idempotent). Unread announcements of one
 * space aggregate by post (`post`); a post deleted before the job runs is announced to no one.
 */
@Injectable()
export class PostAnnouncements implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audience: ContentAudience,
    private readonly writer: NotificationWriter,
    private readonly names: PeopleNames,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // One announcement at a time per process, so announcing never takes the pool from requests.
    this.jobs.handle<AnnounceJob>(ANNOUNCE_POST, (job) => this.announce(job.postId, new Date(job.at)), {
      concurrency: 1,
    });
  }

  /** Queues the announcement of a committed post (once per post). */
  enqueue(postId: string): Promise<void> {
    const job: AnnounceJob = { postId, at: this.clock.now().toISOString() };
    return this.jobs.add(ANNOUNCE_POST, job, {
      jobId: postId,
      delayMs: this.config.NOTIFY_ANNOUNCE_DELAY_MS,
    });
  }

  async announce(postId: string, at: Date): Promise<void> {
    const key = `notify.post.created:${postId}`;
    await this.dataSource.query(
      'INSERT INTO notification_fanouts (key) VALUES ($1) ON CONFLICT (key) DO NOTHING',
      [key],
    );
    let finished = false;
    while (!finished) {
      const started = Date.now();
      finished = await this.dataSource.transaction(async (manager) => {
        const [progress] = (await manager.query(
          'SELECT after_did, done_at FROM notification_fanouts WHERE key = $1 FOR UPDATE',
          [key],
        )) as { after_did: string | null; done_at: Date | null }[];
        if (!progress || progress.done_at) return true;
        const post = await this.audience.post(postId, manager);
        const batch = post
          ? await this.audience.readers(
              post,
              { except: post.authorDid, after: progress.after_did, limit: ANNOUNCE_BATCH },
              manager,
            )
          : [];
        if (post && batch.length > 0) {
          const author = (await this.names.of([post.authorDid]))(post.authorDid);
          const id = formatEntityId('post', post.id);
          await this.writer.write(
            batch,
            {
              kind: 'notify.post.created',
              spaceId: post.spaceId,
              audience: 'members',
              groupKey: `notify.post.created:${post.spaceId}`,
              scope: {
                type: 'post',
                preview: {
                  id,
                  title: withTitle(`${nameOf(author)} posted`, post.displayTitle),
                  createdBy: author,
                  createdAt: at.toISOString(),
                },
              },
              aggregationType: 'post',
              item: { id, title: post.displayTitle, createdBy: author },
              postId: post.id,
              at,
            },
            manager,
          );
        }
        const done = batch.length < ANNOUNCE_BATCH;
        await manager.query('UPDATE notification_fanouts SET after_did = $2, done_at = $3 WHERE key = $1', [
          key,
          batch.at(-1) ?? progress.after_did,
          done ? this.clock.now() : null,
        ]);
        return done;
      });
      if (!finished) await rest((Date.now() - started) * REST_PER_BATCH);
    }
  }
}

const rest = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
