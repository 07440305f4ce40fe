import { DataSource, EntityManager } from 'typeorm';
import { conflict } from '../common/errors/api-error';
import { isUniqueViolation } from '../spaces';

/**
 * One write transaction whose unique-index refusal (a slug taken meanwhile) is a 409. A write that
 * derives its slug inside the transaction passes `attempts > 1`: a concurrent writer that took the
 * derived slug first sends it round again, to derive the next free one.
 */
export async function writeUnique<T>(
  dataSource: DataSource,
  write: (manager: EntityManager) => Promise<T>,
  attempts = 1,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await dataSource.transaction(write);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (attempt >= attempts) throw conflict('Slug taken');
    }
  }
}

/** Rounds a create that derives its slug gets against a concurrent write sending that slug. */
export const DERIVED_SLUG_ATTEMPTS = 3;
