export { TicketEntry } from './dto/store-records.dto';
export { StoreModule } from './store.module';
export { TicketCatalog } from './services/store-tickets.service';
