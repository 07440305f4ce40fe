/** Domain events of the comments module (emitted inside the comment write's transaction). */

/**
 * A live comment was added to a post. `postAuthorDid` wrote the post; on a reply, `rootAuthorDid`
 * wrote the live root comment it hangs under (null on a root, or when the root is a tombstone).
 */
export class CommentAdded {
  constructor(
    readonly spaceId: string,
    readonly postId: string,
    readonly commentId: string,
    readonly authorDid: string,
    readonly postAuthorDid: string | null = null,
    readonly rootAuthorDid: string | null = null,
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
