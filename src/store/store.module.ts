import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PaginationModule } from '../common/pagination/pagination.module';
import { SpacesModule } from '../spaces';
import { UsersModule } from '../users';
import { MediaRecordsModule } from '../media';
import { StoreAdminController } from './controllers/store-admin.controller';
import { StorefrontController } from './controllers/storefront.controller';
import { StoreProductPrice } from './entities/store-product-price.entity';
import { StoreProduct } from './entities/store-product.entity';
import { StoreReleaseProduct } from './entities/store-release-product.entity';
import { StoreRelease } from './entities/store-release.entity';
import { ProductPrices } from './product-prices';
import { ProductsService } from './products.service';
import { ReleasesService } from './releases.service';
import { StorefrontService } from './storefront.service';
import { TicketCatalog } from './ticket-catalog';

/**
 * The store (design.md §9, §13): products with their prices and releases, written by the space's
 * admins and read anonymously; `TicketCatalog` gives the events module its ticket entries.
 */
@Module({
  imports: [
    PaginationModule,
    SpacesModule,
    UsersModule,
    MediaRecordsModule,
    TypeOrmModule.forFeature([StoreProduct, StoreProductPrice, StoreRelease, StoreReleaseProduct]),
  ],
  controllers: [StoreAdminController, StorefrontController],
  providers: [ProductPrices, ProductsService, ReleasesService, StorefrontService, TicketCatalog],
  exports: [TicketCatalog],
})
export class StoreModule {}
