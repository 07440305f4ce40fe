import { HttpStatus } from '@nestjs/common';
import { ApiError } from '../../../common/errors/api-error';

/** Seconds a client is told to wait when every render slot and queue place is taken. */
export const RENDERS_BUSY_RETRY_AFTER_SECONDS = 1;

/** The 503 of a full render queue (design.md §5), with `Retry-After`. */
export function rendersBusy(): ApiError {
  return new ApiError(
    HttpStatus.SERVICE_UNAVAILABLE,
    'Too many images are being transformed; retry shortly',
    {},
    { 'Retry-After': String(RENDERS_BUSY_RETRY_AFTER_SECONDS) },
  );
}

/**
 * At most `concurrency` renders at once in this process, at most `queueLength` more waiting their
 * turn in arrival order; past that, a render is refused at once (docs/decisions/0106-image-render-slots.md)
 * rather than waiting behind an unbounded line.
 */
export class RenderSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queueLength: number,
  ) {}

  /** Runs `work` in a slot; throws the 503 when the slots and the queue are full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active++;
    } else {
      if (this.waiting.length >= this.queueLength) throw rendersBusy();
      // The slot is handed over by the render that frees it: `active` stays as it is.
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

  /** Renders running and waiting now (for tests and metrics). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}
