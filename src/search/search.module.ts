import { Module } from '@nestjs/common';
import { CommentRecordsModule } from '../comments';
import { PaginationModule } from '../common/pagination/pagination.module';
import { PostsModule } from '../posts';
import { SpacesModule } from '../spaces';
import { SearchController } from './controllers/search.controller';
import { SpaceSearchController } from './controllers/space-search.controller';
import { SearchBackend } from './domain/search-backend';
import { SearchRepository } from './search.repository';
import { SearchItemsService } from './services/search-items.service';
import { SearchPresenter } from './services/search.presenter';
import { SearchService } from './services/search.service';

/**
 * Search: posts, comments, pages and events in a space and across the caller's spaces, with
 * exactly the listings' access. It owns no table: the vectors and GIN indexes sit on the owners'
 * tables and are read through the views they publish
 * (docs/decisions/0180-search-indexes-on-the-owners-tables.md); every read goes through
 * `SearchBackend`, PostgreSQL full-text today (docs/decisions/0183-a-search-backend-interface.md).
 */
@Module({
  imports: [PaginationModule, PostsModule, CommentRecordsModule, SpacesModule],
  controllers: [SpaceSearchController, SearchController],
  providers: [
    SearchService,
    SearchPresenter,
    SearchItemsService,
    SearchRepository,
    { provide: SearchBackend, useExisting: SearchRepository },
  ],
  exports: [SearchItemsService],
})
export class SearchModule {}
