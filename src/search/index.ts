/**
 * The public API of the `search` module (docs/architecture.md "Module shape"): its routes are its
 * offer; `SearchItemsService` is where the events module registers its occurrence cards.
 */
export { SearchModule } from './search.module';
export { type EventCards, SearchItemsService } from './services/search-items.service';
