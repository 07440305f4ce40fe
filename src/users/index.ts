export { AuthorDirectoryService } from './services/author-directory.service';
export { authorRecordOf } from './domain/author-record';
export { AuthorRecord } from './dto/author.dto';
export { UsersModule } from './users.module';
export { UsersService } from './services/users.service';
export const PUBLISHED_VIEWS = ['public_users', 'author_records'] as const;
