import { randomUUID } from 'node:crypto';
import { PROBE_JOB, SWEEP_JOB } from '../../../src/media/processing/media-processing';
import { CHAIN_OUTBOX_SWEEP } from '../../../src/protocol/publishing/chain-outbox-sweeper';
import { OCCURRENCE_REFRESH } from '../../../src/events/occurrence-refresh';

/**
 * The data a job of each kind carries, for tests that queue one of every kind. A new kind fails
 * test/e2e/jobs/every-job-survives-worker-death until it is listed here (or arises from a write).
 */
export const MEDIA_PROBE_KIND_DATA: Record<string, unknown> = {
  // A media that does not exist (any more): the job finds nothing to do, which is its idempotence.
  [PROBE_JOB]: { mediaId: randomUUID() },
};

/** Repeating kinds carry no data. */
export const REPEATING_KIND_DATA: Record<string, unknown> = {
  [SWEEP_JOB]: {},
  [CHAIN_OUTBOX_SWEEP]: {},
  [OCCURRENCE_REFRESH]: {},
};
