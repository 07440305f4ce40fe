/** Domain events of the posts module (emitted inside the post write's transaction). */

/** A post was published in a topic of a space. */
export class PostPublished {
  constructor(
    readonly spaceId: string,
    readonly postId: string,
    readonly topicId: string,
    readonly authorDid: string,
  ) {}
}

/** A post's title, body, topic or attachments changed (`topicId`: where it is now). */
export class PostUpdated {
  constructor(
    readonly spaceId: string,
    readonly postId: string,
    readonly topicId: string,
    readonly authorDid: string,
  ) {}
}

/** A post was deleted (`topicId`: where it was). */
export class PostDeleted {
  constructor(
    readonly spaceId: string,
    readonly postId: string,
    readonly topicId: string,
    readonly authorDid: string,
  ) {}
}

/** Someone upvoted a post (not emitted when the upvote already existed). */
export class PostUpvoted {
  constructor(
    readonly spaceId: string,
    readonly postId: string,
    readonly authorDid: string,
    readonly voterDid: string,
  ) {}
}

/** An admin pinned a post (not emitted when it already was pinned). */
export class PostPinned {
  constructor(
    readonly spaceId: string,
    readonly postId: string,
    readonly topicId: string,
    readonly byDid: string,
  ) {}
}
