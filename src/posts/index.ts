export { bareUrlsOf } from './domain/post-text';
export { POST_SCHEMA, postDocumentText } from './domain/post-document';
export { PostCard, SpaceCallToAction } from './dto/post-records.dto';
export { PostDeleted, PostPinned, PostPublished, PostUpdated, PostUpvoted } from './events/post.events';
export { memberReadsPost } from './repositories/post-readers.repository';
export { PostAccessService } from './services/post-access.service';
export { PostErasureService } from './services/post-erasure.service';
export { ExportedPost, PostExportService } from './services/post-export.service';
export { PostCardsService } from './services/post-cards.service';
export {
  PostReadabilityService,
  type PostSubject,
  type ReaderQuery,
} from './services/post-readability.service';
export { PostsModule } from './posts.module';
export { PostsService } from './services/posts.service';
export { CreatePostRequest } from './dto/post-requests.dto';
export const PUBLISHED_VIEWS = ['live_posts', 'searchable_posts'] as const;
