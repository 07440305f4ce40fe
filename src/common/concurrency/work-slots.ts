/**
 * At most `concurrency` pieces of one kind of costly work at once in this process, at most
 * `queueLength` more waiting their turn in arrival order; past that, work is refused at once with
 * the error `busy` makes (a 503 with `Retry-After`) rather than waiting behind an unbounded line
 * (docs/decisions/0106-image-render-slots.md, 0184-search-slots.md).
 */
export class WorkSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queueLength: number,
    private readonly busy: () => Error,
  ) {}

  /** Runs `work` in a slot; throws `busy()` when the slots and the queue are full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.concurrency) {
      this.active++;
    } else {
      if (this.waiting.length >= this.queueLength) throw this.busy();
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
