import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { conflict } from '../../common/errors/api-error';
import { isUniqueViolation } from '../../spaces';

/** Rounds a create that derives its slug gets against a concurrent write sending that slug. */
export const DERIVED_SLUG_ATTEMPTS = 3;

/** The store's writes of a slug: each one transaction whose unique-index refusal is a 409. */
@Injectable()
export class UniqueWritesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Runs `write` in one transaction whose unique-index refusal (a slug taken meanwhile) is a 409.
   * A write that derives its slug inside the transaction passes `attempts > 1`: a concurrent
   * writer that took the derived slug first sends it round again, to derive the next free one.
   */
  async run<T>(write: (manager: EntityManager) => Promise<T>, attempts = 1): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.dataSource.transaction(write);
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (attempt >= attempts) throw conflict('Slug taken');
      }
    }
  }
}
