export { CommentRecordsModule } from './comment-records.module';
export { CommentItem } from './dto/comment-records.dto';
export { CommentItemsService } from './services/comment-items.service';
export { CommentAdded, CommentRemoved, CommentUpvoted } from './events/comment.events';
export const PUBLISHED_VIEWS = ['searchable_comments'] as const;
export { CommentErasureService } from './services/comment-erasure.service';
export { CommentErasureModule } from './comment-erasure.module';
export { CommentExportService } from './services/comment-export.service';
