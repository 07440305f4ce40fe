import { QueryFailedError } from 'typeorm';

const UNIQUE_VIOLATION = '23505';

/** A write refused by a unique index (a taken domain, topic name or page slug). */
export function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    (error as QueryFailedError & { code?: string }).code === UNIQUE_VIOLATION
  );
}
