export { AuthorDirectory, authorRecordOf } from './author-directory';
export { AuthorRecord } from './dto/author.dto';
export { UsersModule } from './users.module';
export { UsersService } from './users.service';
export const PUBLISHED_VIEWS = ['public_users', 'author_records'] as const;
