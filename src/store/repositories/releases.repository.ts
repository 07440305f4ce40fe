import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { defineStatements } from '../../infrastructure/database/statements';
import { KeysetSeek } from '../../common/pagination/keyset';
import { StoredCredit, StoreRelease } from '../entities/store-release.entity';

const RELEASE_COLUMNS =
  'id, space_id, slug, title, description, cover_media_id, credits, published, published_at, created_at, ' +
  'updated_at, deleted_at';
const PUBLISHED_RELEASES_OF_SPACE = `SELECT ${RELEASE_COLUMNS} FROM store_releases WHERE space_id = $1 AND published AND deleted_at IS NULL`;

/** The fixed SQL on releases and their product lists (docs/decisions/0131-a-repository-per-module.md). */
export const RELEASES_STATEMENTS = defineStatements('ReleasesRepository', {
  /**
   * A page of a space's published live releases, newest `published_at` first (over the partial
   * index of published releases): $1 space id; after a cursor $2, $3 its position; then the count.
   */
  releasesPage: {
    first: `${PUBLISHED_RELEASES_OF_SPACE} ORDER BY published_at DESC, id DESC LIMIT $2`,
    after: `${PUBLISHED_RELEASES_OF_SPACE} AND (published_at, id) < ($2, $3) ORDER BY published_at DESC, id DESC LIMIT $4`,
    before: `${PUBLISHED_RELEASES_OF_SPACE} AND (published_at, id) > ($2, $3) ORDER BY published_at ASC, id ASC LIMIT $4`,
  },
  /** The products a release ($1) lists, in its order. */
  productIdsOfRelease:
    'SELECT product_id FROM store_release_products WHERE release_id = $1 ORDER BY position ASC',
  /** A release's ($1) product list, all of it: a write replaces the list. */
  deleteProductsOfRelease: 'DELETE FROM store_release_products WHERE release_id = $1',
  /**
   * A page of a space's ($1) live releases, published or not, by id, for its export ($2 rows;
   * `after`: $3 the last id; docs/decisions/0218-space-export-events-products-releases.md).
   */
  exportReleasesPage: {
    first: `SELECT ${RELEASE_COLUMNS} FROM store_releases WHERE space_id = $1 AND deleted_at IS NULL ORDER BY id LIMIT $2`,
    after: `SELECT ${RELEASE_COLUMNS} FROM store_releases WHERE space_id = $1 AND deleted_at IS NULL AND id > $3 ORDER BY id LIMIT $2`,
  },
  /** The product lists of some releases ($1 ids), each in its order: one query per page. */
  productIdsOfReleases:
    'SELECT release_id, product_id FROM store_release_products WHERE release_id = ANY($1::uuid[]) ORDER BY release_id, position ASC',
  /**
   * The release's ($1) product list: the products ($2) in that order
   * (docs/decisions/0141-multi-row-writes-as-unnest.md).
   */
  insertProductsOfRelease:
    'INSERT INTO store_release_products (release_id, product_id, position) ' +
    'SELECT $1, listed.product_id, listed.ordinal - 1 FROM unnest($2::uuid[]) WITH ORDINALITY AS listed (product_id, ordinal)',
});

interface ReleaseRow {
  id: string;
  space_id: string;
  slug: string;
  title: string;
  description: string | null;
  cover_media_id: string | null;
  credits: StoredCredit[];
  published: boolean;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
}

function releaseOfRow(row: ReleaseRow): StoreRelease {
  return Object.assign(new StoreRelease(), {
    id: row.id,
    spaceId: row.space_id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    coverMediaId: row.cover_media_id,
    credits: row.credits,
    published: row.published,
    publishedAt: row.published_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    deletedAt: row.deleted_at,
  });
}

/** Every statement on `store_releases` and `store_release_products`. */
@Injectable()
export class ReleasesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async releasesPage(spaceId: string, seek: KeysetSeek): Promise<StoreRelease[]> {
    const variants = RELEASES_STATEMENTS.releasesPage;
    const rows = await this.dataSource.query<ReleaseRow[]>(
      !seek.values ? variants.first : seek.backward ? variants.before : variants.after,
      [spaceId, ...(seek.values ?? []), seek.take],
    );
    return rows.map(releaseOfRow);
  }

  /** A page of the space's live releases by id, for the space's export. */
  async exportReleasesPage(
    spaceId: string,
    after: string | null,
    limit: number,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<StoreRelease[]> {
    const { exportReleasesPage } = RELEASES_STATEMENTS;
    const rows = after
      ? await runner.query<ReleaseRow[]>(exportReleasesPage.after, [spaceId, limit, after])
      : await runner.query<ReleaseRow[]>(exportReleasesPage.first, [spaceId, limit]);
    return rows.map(releaseOfRow);
  }

  /** Each release's product ids, in its order. */
  async productIdsOfReleases(
    releaseIds: readonly string[],
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, string[]>> {
    const byRelease = new Map<string, string[]>(releaseIds.map((id) => [id, []]));
    if (releaseIds.length === 0) return byRelease;
    const rows = await runner.query<{ release_id: string; product_id: string }[]>(
      RELEASES_STATEMENTS.productIdsOfReleases,
      [[...releaseIds]],
    );
    for (const row of rows) byRelease.get(row.release_id)?.push(row.product_id);
    return byRelease;
  }

  /** A published live release of the space by its id or its slug, else null. */
  publishedRelease(spaceId: string, key: { id: string } | { slug: string }): Promise<StoreRelease | null> {
    return this.dataSource
      .getRepository(StoreRelease)
      .findOne({ where: { ...key, spaceId, published: true, deletedAt: IsNull() } });
  }

  /** A live release of the space, else null. */
  liveRelease(id: string, spaceId: string): Promise<StoreRelease | null> {
    return this.dataSource
      .getRepository(StoreRelease)
      .findOne({ where: { id, spaceId, deletedAt: IsNull() } });
  }

  releaseById(id: string, runner: EntityManager): Promise<StoreRelease> {
    return runner.findOneByOrFail(StoreRelease, { id });
  }

  async insertRelease(
    release: Omit<StoreRelease, 'createdAt' | 'updatedAt'>,
    runner: EntityManager,
  ): Promise<void> {
    await runner.insert(StoreRelease, release);
  }

  async updateRelease(
    id: string,
    changes: Partial<StoreRelease>,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await runner.update(StoreRelease, { id }, changes);
  }

  async productIdsOfRelease(releaseId: string): Promise<string[]> {
    const rows = await this.dataSource.query<{ product_id: string }[]>(
      RELEASES_STATEMENTS.productIdsOfRelease,
      [releaseId],
    );
    return rows.map((row) => row.product_id);
  }

  /** Replaces the release's product list with `productIds`, in that order. */
  async replaceProductsOfRelease(
    releaseId: string,
    productIds: string[],
    runner: EntityManager,
  ): Promise<void> {
    await runner.query(RELEASES_STATEMENTS.deleteProductsOfRelease, [releaseId]);
    if (productIds.length === 0) return;
    await runner.query(RELEASES_STATEMENTS.insertProductsOfRelease, [releaseId, productIds]);
  }
}
