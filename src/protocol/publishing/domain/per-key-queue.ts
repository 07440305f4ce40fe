/** Runs tasks one at a time per key, in call order; a failed task does not stop the next one. */
export class PerKeyQueue {
  private readonly running = new Map<string, Promise<void>>();

  run(key: string, task: () => Promise<void>): Promise<void> {
    const previous = this.running.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(task);
    this.running.set(key, next);
    const forget = () => {
      if (this.running.get(key) === next) this.running.delete(key);
    };
    next.then(forget, forget);
    return next;
  }
}
