/** The job kind that runs one import ({importId}), recorded in the request's transaction. */
export const IMPORT_RUN_JOB = 'imports.run';

/** The data of an `imports.run` job. */
export interface ImportRunJob {
  importId: string;
}

/**
 * The job kind that ingests a done import's verified source chains into this relay
 * ({importId}; docs/decisions/0236), recorded in the transaction that marks the import done.
 */
export const IMPORT_ANNOUNCE_JOB = 'imports.announce';

/** The data of an `imports.announce` job. */
export interface ImportAnnounceJob {
  importId: string;
}
