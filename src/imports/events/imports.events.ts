/** The job kind that runs one import ({importId}), recorded in the request's transaction. */
export const IMPORT_RUN_JOB = 'imports.run';

/** The data of an `imports.run` job. */
export interface ImportRunJob {
  importId: string;
}
