import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../errors/api-error';

/** Seconds a client is told to wait when every slot and queue place is taken. */
export const SLOTS_BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * At most `concurrency` pieces of one kind of costly work at once in this process, at most
 * `queueLength` more waiting their turn in arrival order; past that, work is refused at once with a
 * 503 (design.md §5) saying `busyMessage`, with `Retry-After`, rather than waiting behind an
 * unbounded line (docs/decisions/0106-image-render-slots.md, 0184-search-slots.md).
 */
export class WorkSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queueLength: number,
    private readonly busyMessage: string,
  ) {}

  /** Runs `work` in a slot; throws the 503 when the slots and the queue are full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active++;
    } else {
      if (this.waiting.length >= this.queueLength)
        throw new ApiError(
          HttpStatus.SERVICE_UNAVAILABLE,
          this.busyMessage,
          {},
          { 'Retry-After': String(SLOTS_BUSY_RETRY_AFTER_SECONDS) },
        );
      // The slot is handed over by the work that frees it: `active` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Work running and waiting now (for tests and metrics). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}
