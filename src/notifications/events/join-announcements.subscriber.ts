import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import { JobOutbox } from '../../infrastructure/jobs/job-outbox';
import { nameOf } from '../domain/notification-titles';
import { NotificationsRepository } from '../notifications.repository';
import { FANOUT_BATCH, NotificationFanoutsService } from '../services/notification-fanouts.service';
import { PeopleNamesService } from '../services/people-names.service';
import { NotificationWritesService } from '../services/notification-writes.service';

export const ANNOUNCE_JOIN = 'notifications.announce-join';

interface JoinJob {
  spaceId: string;
  memberDid: string;
  /** When they joined (the activity's time), ISO. */
  at: string;
}

/**
 * `notify.member.joined` (design.md §14: every other active member) by a background job, as post
 * announcements are, so a join answers at the same cost whatever the space's size. The job is a
 * NotificationFanoutsService run keyed by the join itself (space, person, time: a later join of the same
 * person is another activity): batches in DID order with their progress in `notification_fanouts`,
 * so a retried job neither tells anyone twice nor counts the joiner twice. Unread joins of one
 * space aggregate by person (`identity`). The job is recorded in the join's own transaction
 * (JobOutbox), so no fault loses it (docs/decisions/0125-no-background-work-lost.md).
 */
@Injectable()
export class JoinAnnouncementsSubscriber implements OnModuleInit {
  constructor(
    private readonly outbox: JobOutbox,
    private readonly fanouts: NotificationFanoutsService,
    private readonly notifications: NotificationsRepository,
    private readonly writes: NotificationWritesService,
    private readonly names: PeopleNamesService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // One at a time per process, as post announcements: a burst of joins queues up behind it.
    this.outbox.handle<JoinJob>(
      ANNOUNCE_JOIN,
      (job) => this.announce(job.spaceId, job.memberDid, new Date(job.at)),
      { concurrency: 1 },
    );
  }

  /** Records the announcement of a join in the join's transaction (one statement). */
  record(manager: EntityManager, spaceId: string, memberDid: string): Promise<void> {
    const job: JoinJob = { spaceId, memberDid, at: this.clock.now().toISOString() };
    return this.outbox.record(manager, ANNOUNCE_JOIN, job, { delayMs: this.config.NOTIFY_ANNOUNCE_DELAY_MS });
  }

  async announce(spaceId: string, memberDid: string, at: Date): Promise<void> {
    const joiner = (await this.names.of([memberDid]))(memberDid);
    const key = `notify.member.joined:${spaceId}:${memberDid}:${at.toISOString()}`;
    await this.fanouts.run(key, async (manager, afterDid) => {
      const batch = await this.notifications.membersAfter(
        spaceId,
        memberDid,
        afterDid,
        FANOUT_BATCH,
        manager,
      );
      await this.writes.write(
        batch,
        {
          kind: 'notify.member.joined',
          spaceId,
          audience: 'members',
          groupKey: `notify.member.joined:${spaceId}`,
          scope: {
            type: 'member',
            preview: {
              id: memberDid,
              title: `${nameOf(joiner)} joined`,
              createdBy: joiner,
              createdAt: at.toISOString(),
            },
          },
          aggregationType: 'identity',
          item: joiner,
          postId: null,
          at,
        },
        manager,
      );
      return batch;
    });
  }
}
