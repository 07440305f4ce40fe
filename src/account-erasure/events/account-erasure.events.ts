/** The job kind of the erasure sweep (repeating; docs/decisions/0197-one-transaction-per-erasure-driven-by-a-sweep.md). */
export const ERASURE_SWEEP_JOB = 'account-erasure.sweep';

/** How often the sweep runs: erasures are due in days, an hour late is nothing. */
export const ERASURE_SWEEP_EVERY_MS = 3_600_000;
