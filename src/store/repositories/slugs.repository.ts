import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';

/** The fixed SQL of derived slugs (docs/decisions/0131-a-repository-per-module.md). */
export const SLUGS_STATEMENTS = defineStatements('SlugsRepository', {
  /** Queues the creates that derive slugs of one kind in one space ($1 the queue's name) till commit. */
  lockSlugs: 'SELECT pg_advisory_xact_lock(hashtext($1))',
  /** The live slugs of the space ($1) that are the base ($2) or match its candidates' pattern ($3). */
  takenSlugs: {
    products:
      'SELECT slug FROM store_products WHERE space_id = $1 AND deleted_at IS NULL AND (slug = $2 OR slug LIKE $3)',
    releases:
      'SELECT slug FROM store_releases WHERE space_id = $1 AND deleted_at IS NULL AND (slug = $2 OR slug LIKE $3)',
  },
});

/** Which table a derived slug is free in. */
export type SlugKind = 'products' | 'releases';

/** The slugs taken in products or releases, read in a create's transaction. */
@Injectable()
export class SlugsRepository {
  /**
   * The live slugs of the space that are `base` or match `pattern`, read in the write's
   * transaction after queueing behind the other creates deriving a slug of this kind in the space,
   * so each sees the slugs the others took.
   */
  async takenSlugs(
    kind: SlugKind,
    spaceId: string,
    base: string,
    pattern: string,
    runner: EntityManager,
  ): Promise<Set<string>> {
    await runner.query(SLUGS_STATEMENTS.lockSlugs, [`store-slug:${SLUG_QUEUE[kind]}:${spaceId}`]);
    const rows = await runner.query<{ slug: string }[]>(SLUGS_STATEMENTS.takenSlugs[kind], [
      spaceId,
      base,
      pattern,
    ]);
    return new Set(rows.map((row) => row.slug));
  }
}

/** The advisory lock's name per kind, as it was (the entity's class name). */
const SLUG_QUEUE: Record<SlugKind, string> = { products: 'StoreProduct', releases: 'StoreRelease' };
