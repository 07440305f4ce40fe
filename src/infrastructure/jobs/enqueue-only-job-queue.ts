import { AddedJob, JobHandler, JobQueue, JobRetry, WaitingJobs } from './job-queue';

/**
 * The queue of an `api` process (PLAT_ROLE, docs/decisions/0117-process-roles.md): it queues jobs and
 * runs none. Handlers are still registered, because a kind's retry settings travel with the jobs
 * it queues; they never run here. Repeating jobs are scheduled by the processes that run them.
 */
export class EnqueueOnlyJobQueue extends JobQueue {
  constructor(private readonly queue: JobQueue) {
    super();
  }

  handle<T>(name: string, handler: JobHandler<T>, retry?: JobRetry): void {
    this.queue.handle(name, handler, retry);
  }

  add<T>(name: string, data: T, options?: AddedJob): Promise<void> {
    return this.queue.add(name, data, options);
  }

  every(): Promise<void> {
    return Promise.resolve();
  }

  depth(): Promise<Record<string, number>> {
    return this.queue.depth();
  }

  waiting(): Promise<Record<string, WaitingJobs>> {
    return this.queue.waiting();
  }

  override queueNames(): string[] {
    return this.queue.queueNames();
  }

  start(): void {
    // No worker: the `worker` processes take what this one queues.
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
