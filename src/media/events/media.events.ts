/** The job kinds the media module queues and handles (events/media-jobs.subscriber.ts). */

/** Processes an audio or video upload whose bytes were just stored. */
export const PROBE_JOB = 'media.probe';
/** Every MEDIA_SWEEP_MS: deletes expired mints, fails stuck processing (MediaProcessingService.sweep). */
export const SWEEP_JOB = 'media.sweep';

export interface ProbeJob {
  mediaId: string;
}

/**
 * Deletes the stored files of media an erasure deleted, recorded in the erasure's transaction
 * (job outbox), so they go only once it committed, retried until they are gone
 * (docs/decisions/0192-an-erasure-takes-the-persons-media-and-invites.md).
 */
export const DELETE_FILES_JOB = 'media.delete-files';

export interface DeleteFilesJob {
  /** Each media's id (its variants are listed under it) and its stored keys. */
  media: { id: string; keys: string[] }[];
}
