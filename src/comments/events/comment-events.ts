/** Domain events of the comments module (emitted inside the comment write's transaction). */

/** A live comment was added to a post. */
export class CommentAdded {
  constructor(
    readonly spaceId: string,
    readonly postId: string,
    readonly commentId: string,
    readonly authorDid: string,
  ) {}
}

/** A live comment became a tombstone. */
export class CommentRemoved {
  constructor(
    readonly spaceId: string,
    readonly postId: string,
    readonly commentId: string,
  ) {}
}

/** Someone upvoted a comment (not emitted when the upvote already existed). */
export class CommentUpvoted {
  constructor(
    readonly spaceId: string,
    readonly postId: string,
    readonly commentId: string,
    readonly authorDid: string,
    readonly voterDid: string,
  ) {}
}
