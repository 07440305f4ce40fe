export { SpaceCallToAction } from './dto/post-records.dto';
export { PostPinned, PostPublished, PostUpvoted } from './events/post-events';
export { PostAccess } from './post-access.service';
export { PostReadability } from './post-readability';
export { PostsModule } from './posts.module';
export const PUBLISHED_VIEWS = ['live_posts'] as const;
