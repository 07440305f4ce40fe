export { TicketEntry } from './dto/store-records.dto';
export { StoreModule } from './store.module';
export { StoreTicketsService } from './services/store-tickets.service';
export { ProductPublished, ReleasePublished } from './events/store.events';
export { ExportedProduct, ExportedRelease, StoreExportService } from './services/store-export.service';
export { ProductsService } from './services/products.service';
export { ReleasesService } from './services/releases.service';
export { CreditInput, PriceInput, ProductRequest, ReleaseRequest } from './dto/store-requests.dto';
