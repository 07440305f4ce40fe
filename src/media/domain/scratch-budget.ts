/** A file is larger than the whole scratch budget: no wait would ever make room for it. */
export class ScratchTooSmall extends Error {
  constructor(
    readonly bytes: number,
    readonly budget: number,
  ) {
    super(`${bytes} bytes do not fit the scratch budget of ${budget} bytes (MEDIA_SCRATCH_MAX_BYTES)`);
  }
}

/**
 * Bytes of temporary files this process's processing jobs may hold at once (MEDIA_SCRATCH_MAX_BYTES),
 * shared by every job: a job reserves its file's size before writing a byte and waits, in order of
 * asking, while the others' files leave too little room.
 */
export class ScratchBudget {
  private reserved = 0;
  private readonly waiting: { bytes: number; grant: () => void }[] = [];

  constructor(readonly totalBytes: number) {}

  /** Reserves `bytes`; resolves with the release once they fit. ScratchTooSmall past the total. */
  async reserve(bytes: number): Promise<() => void> {
    if (bytes > this.totalBytes) throw new ScratchTooSmall(bytes, this.totalBytes);
    if (this.waiting.length > 0 || this.reserved + bytes > this.totalBytes) {
      await new Promise<void>((grant) => this.waiting.push({ bytes, grant }));
    } else {
      this.reserved += bytes;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.reserved -= bytes;
      this.grantWaiting();
    };
  }

  /** Bytes reserved now (for tests and metrics). */
  get inUse(): number {
    return this.reserved;
  }

  private grantWaiting(): void {
    // First come, first served: a large file at the head is not overtaken by smaller ones.
    while (this.waiting.length > 0 && this.reserved + this.waiting[0].bytes <= this.totalBytes) {
      const next = this.waiting.shift()!;
      this.reserved += next.bytes;
      next.grant();
    }
  }
}
