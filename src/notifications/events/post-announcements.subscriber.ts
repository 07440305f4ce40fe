import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { formatEntityId } from '../../common/ids/entity-id';
import { AppConfig } from '../../config/app-config';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { PostReadabilityService } from '../../posts';
import { nameOf, withTitle } from '../domain/notification-titles';
import { FANOUT_BATCH, NotificationFanoutsService } from '../services/notification-fanouts.service';
import { PeopleNamesService } from '../services/people-names.service';
import { NotificationWritesService } from '../services/notification-writes.service';

export const ANNOUNCE_POST = 'notifications.announce-post';

interface AnnounceJob {
  postId: string;
  /** When the post was published (the activity's time), ISO. */
  at: string;
}

/**
 * `notify.post.created` (design.md §14): a published post is announced to the active members who
 * read it, except its author, by a background job, so the author's POST does not grow with the
 * space. The job is a NotificationFanoutsService run (key `notify.post.created:<post>`: batches in DID
 * order, progress in `notification_fanouts`, idempotent on retry). Unread announcements of one
 * space aggregate by post (`post`); a post deleted before the job runs is announced to no one.
 * The job is recorded in the post's own transaction (JobOutbox), so no fault loses it
 * (docs/decisions/0125-no-background-work-lost.md).
 */
@Injectable()
export class PostAnnouncementsSubscriber implements OnModuleInit {
  constructor(
    private readonly outbox: JobOutbox,
    private readonly fanouts: NotificationFanoutsService,
    private readonly audience: PostReadabilityService,
    private readonly writes: NotificationWritesService,
    private readonly names: PeopleNamesService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // One announcement at a time per process, so announcing never takes the pool from requests.
    this.outbox.handle<AnnounceJob>(ANNOUNCE_POST, (job) => this.announce(job.postId, new Date(job.at)), {
      concurrency: 1,
    });
  }

  /** Records the announcement of a post in the transaction that publishes it (one statement). */
  record(manager: EntityManager, postId: string): Promise<void> {
    const job: AnnounceJob = { postId, at: this.clock.now().toISOString() };
    return this.outbox.record(manager, ANNOUNCE_POST, job, {
      jobId: postId,
      delayMs: this.config.NOTIFY_ANNOUNCE_DELAY_MS,
    });
  }

  announce(postId: string, at: Date): Promise<void> {
    return this.fanouts.run(`notify.post.created:${postId}`, async (manager, afterDid) => {
      const post = await this.audience.subject(postId, manager);
      if (!post) return [];
      const batch = await this.audience.readers(
        post,
        { except: post.authorDid, after: afterDid, limit: FANOUT_BATCH },
        manager,
      );
      if (batch.length === 0) return batch;
      const author = (await this.names.of([post.authorDid]))(post.authorDid);
      const id = formatEntityId('post', post.id);
      await this.writes.write(
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
      return batch;
    });
  }
}
