import { EntityManager } from 'typeorm';
import { StoreProduct } from './entities/store-product.entity';
import { StoreRelease } from './entities/store-release.entity';
import { slugCandidate, slugCandidatesPattern } from './store-rules';

/**
 * The first free candidate of a derived slug (`base`, `base-2`, …, each at most 80 characters:
 * `slugCandidate`) among the space's live rows, however many are taken, read in the write's
 * transaction. A concurrent writer sending that very slug meanwhile meets the unique index
 * (`writeUnique` then derives again).
 */
export async function freeSlug(
  manager: EntityManager,
  target: typeof StoreProduct | typeof StoreRelease,
  spaceId: string,
  base: string,
): Promise<string> {
  // Creates that derive slugs in one space queue here, so each sees the slugs the others took.
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`store-slug:${target.name}:${spaceId}`]);
  const rows: { slug: string }[] = await manager
    .getRepository<StoreProduct | StoreRelease>(target)
    .createQueryBuilder('row')
    .select('row.slug', 'slug')
    .where('row.spaceId = :spaceId', { spaceId })
    .andWhere('row.deletedAt IS NULL')
    .andWhere('(row.slug = :base OR row.slug LIKE :candidates)', {
      base,
      candidates: slugCandidatesPattern(base),
    })
    .getRawMany();
  const taken = new Set(rows.map((row) => row.slug));
  // Every candidate is `base` or matches the pattern, and candidates are distinct: among
  // taken.size + 1 of them at least one is free.
  for (let attempt = 1; attempt <= taken.size + 1; attempt++) {
    const candidate = slugCandidate(base, attempt);
    if (!taken.has(candidate)) return candidate;
  }
  throw new Error(`no free slug among ${taken.size + 1} candidates of ${base}`);
}
