import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EXPORT_PAGE_ROWS, ExportPage } from '../../common/export/export-page';
import { formatEntityId } from '../../common/ids/entity-id';
import { ProductAdminRecord, ReleaseAdminRecord } from '../dto/store-records.dto';
import { ProductsRepository } from '../repositories/products.repository';
import { ReleasesRepository } from '../repositories/releases.repository';
import { toProductAdminRecord, toReleaseAdminRecord } from './store.presenter';

/** A product as a space's export holds it: the administration record, its cover by id. */
export type ExportedProduct = Omit<ProductAdminRecord, 'cover'> & { coverId: string | null };

/** A release as a space's export holds it: the administration record, its cover by id. */
export type ExportedRelease = Omit<ReleaseAdminRecord, 'cover'> & { coverId: string | null };

/**
 * The store's part of a space's export (issue 35 item 4;
 * docs/decisions/0218-space-export-events-products-releases.md): the space's live products (every
 * price, archived ones included) and releases (their product lists), published or not, as the
 * administration records, a keyset page by id per call: one statement, then one batch for the
 * page's prices or product lists. Covers are named by media id, not by expiring signed URLs.
 */
@Injectable()
export class StoreExportService {
  constructor(
    private readonly products: ProductsRepository,
    private readonly releases: ReleasesRepository,
  ) {}

  async productsPage(
    spaceId: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<ExportedProduct>> {
    const rows = await this.products.exportProductsPage(spaceId, after, limit + 1, runner);
    const shown = rows.slice(0, limit);
    const prices = await this.products.pricesOfProducts(
      shown.map((row) => row.id),
      runner,
    );
    return {
      items: shown.map((product) => {
        // eslint-disable-next-line @typescript-eslint/no-unused-vars
        const { cover, ...record } = toProductAdminRecord(product, prices.get(product.id) ?? [], null);
        return { ...record, coverId: mediaIdOf(product.coverMediaId) };
      }),
      after: rows.length > limit && shown.length > 0 ? shown[shown.length - 1].id : null,
    };
  }

  async releasesPage(
    spaceId: string,
    after: string | null,
    runner?: EntityManager,
    limit = EXPORT_PAGE_ROWS,
  ): Promise<ExportPage<ExportedRelease>> {
    const rows = await this.releases.exportReleasesPage(spaceId, after, limit + 1, runner);
    const shown = rows.slice(0, limit);
    const lists = await this.releases.productIdsOfReleases(
      shown.map((row) => row.id),
      runner,
    );
    return {
      items: shown.map((release) => {
        // eslint-disable-next-line @typescript-eslint/no-unused-vars
        const { cover, ...record } = toReleaseAdminRecord(release, lists.get(release.id) ?? [], null);
        return { ...record, coverId: mediaIdOf(release.coverMediaId) };
      }),
      after: rows.length > limit && shown.length > 0 ? shown[shown.length - 1].id : null,
    };
  }
}

const mediaIdOf = (uuid: string | null): string | null => (uuid ? formatEntityId('media', uuid) : null);
