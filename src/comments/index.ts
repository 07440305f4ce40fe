export { CommentAdded, CommentRemoved, CommentUpvoted } from './events/comment.events';
