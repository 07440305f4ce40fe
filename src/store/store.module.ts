import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { DomainEventsModule } from '../infrastructure/events/domain-events.module';
import { SpacesModule } from '../spaces';
import { UsersModule } from '../users';
import { MediaRecordsModule } from '../media';
import { ProductsController } from './controllers/products.controller';
import { ReleasesController } from './controllers/releases.controller';
import { StorefrontProductsController } from './controllers/storefront-products.controller';
import { StorefrontReleasesController } from './controllers/storefront-releases.controller';
import { StoreProductPrice } from './entities/store-product-price.entity';
import { StoreProduct } from './entities/store-product.entity';
import { StoreReleaseProduct } from './entities/store-release-product.entity';
import { StoreRelease } from './entities/store-release.entity';
import { ProductsService } from './services/products.service';
import { ReleasesService } from './services/releases.service';
import { StoreExportService } from './services/store-export.service';
import { StoreTicketsService } from './services/store-tickets.service';
import { StorefrontService } from './services/storefront.service';
import { UniqueWritesService } from './services/unique-writes.service';
import { ProductsRepository } from './repositories/products.repository';
import { ReleasesRepository } from './repositories/releases.repository';
import { SlugsRepository } from './repositories/slugs.repository';

/**
 * The store (design.md §9, §13): products with their prices and releases, written by the space's
 * admins and read anonymously; `StoreTicketsService` gives the events module its ticket entries.
 */
@Module({
  imports: [
    PaginationModule,
    DomainEventsModule,
    SpacesModule,
    UsersModule,
    MediaRecordsModule,
    TypeOrmModule.forFeature([StoreProduct, StoreProductPrice, StoreRelease, StoreReleaseProduct]),
  ],
  controllers: [
    ProductsController,
    ReleasesController,
    StorefrontProductsController,
    StorefrontReleasesController,
  ],
  providers: [
    ProductsRepository,
    ReleasesRepository,
    SlugsRepository,
    UniqueWritesService,
    ProductsService,
    ReleasesService,
    StorefrontService,
    StoreTicketsService,
    StoreExportService,
  ],
  exports: [StoreTicketsService, StoreExportService, ProductsService, ReleasesService],
})
export class StoreModule {}
