export { CommentAdded, CommentRemoved, CommentUpvoted } from './events/comment.events';
export { CommentErasureService } from './services/comment-erasure.service';
export { CommentErasureModule } from './comment-erasure.module';
