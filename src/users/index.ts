export { AccountErasureService, ErasableAccount } from './services/account-erasure.service';
export { AuthorDirectoryService } from './services/author-directory.service';
export { authorRecordOf } from './domain/author-record';
export { AuthorRecord } from './dto/author.dto';
export { UsersModule } from './users.module';
export { UsersService } from './services/users.service';
export const PUBLISHED_VIEWS = ['public_users', 'author_records', 'erasure_pending_accounts'] as const;
