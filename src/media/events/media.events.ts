/** The job kinds the media module queues and handles (events/media-jobs.subscriber.ts). */

/** Processes an audio or video upload whose bytes were just stored. */
export const PROBE_JOB = 'media.probe';
/** Every MEDIA_SWEEP_MS: deletes expired mints, fails stuck processing (MediaProcessingService.sweep). */
export const SWEEP_JOB = 'media.sweep';

export interface ProbeJob {
  mediaId: string;
}
