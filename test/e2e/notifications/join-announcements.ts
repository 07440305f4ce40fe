import { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../../../src/infrastructure/events/domain-events.service';
import { MemberJoined } from '../../../src/spaces/events/membership.events';
import { Actor } from '../../support/actors';

/**
 * `notify.member.joined` is told by a background job after the join answered: counts the joins the
 * app commits from now on, and `settled()` waits until that many join fan-outs have finished (each
 * join is one `notification_fanouts` row), so a test reads notifications once every join is told.
 */
export function followJoins(app: INestApplication, dataSource: DataSource): { settled(): Promise<void> } {
  let joins = 0;
  app.get(DomainEvents).afterCommit(MemberJoined, () => {
    joins += 1;
    return Promise.resolve();
  });
  return {
    async settled() {
      for (let attempt = 0; attempt < 1000; attempt++) {
        const [{ done }] = (await dataSource.query(
          `SELECT count(*)::int AS done FROM notification_fanouts
            WHERE key LIKE 'notify.member.joined:%' AND done_at IS NOT NULL`,
        )) as { done: number }[];
        if (done >= joins) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error(`${joins} joins were committed but not all were announced`);
    },
  };
}

/**
 * Makes every request of an `Actor` (test/support/actors.ts; the spaces suites' `Caller`s send
 * through one) to a notifications route wait for `joins.settled()` first: the suites written when
 * joins were told before the join answered read their notifications as then. Returns the undo.
 */
export function settleJoinsBeforeNotificationReads(joins: { settled(): Promise<void> }): () => void {
  const prototype = Actor.prototype as unknown as {
    send: (method: string, path: string, ...rest: unknown[]) => unknown;
  };
  const send = prototype.send;
  prototype.send = function (this: unknown, method: string, path: string, ...rest: unknown[]) {
    if (!path.includes('notifications')) return send.call(this, method, path, ...rest);
    return joins.settled().then(() => send.call(this, method, path, ...rest));
  };
  return () => {
    prototype.send = send;
  };
}
