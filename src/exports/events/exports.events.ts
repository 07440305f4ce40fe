/** The job kind that builds one export's archive ({exportId}), recorded in the request's transaction. */
export const EXPORT_BUILD_JOB = 'exports.build';

/** The repeating job kind that deletes expired archives (docs/decisions/0213-export-expiry-and-signed-download.md). */
export const EXPORT_SWEEP_JOB = 'exports.sweep';

/** How often the sweep runs: archives live days, an hour late is nothing. */
export const EXPORT_SWEEP_EVERY_MS = 3_600_000;

/** The data of an `exports.build` job. */
export interface ExportBuildJob {
  exportId: string;
}
