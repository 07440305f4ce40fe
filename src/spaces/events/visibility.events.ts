/**
 * What is public in a space may have changed (emitted inside the admin write's transaction): the
 * space's profile turned public or private or the space was deleted (no `topicId`), or one topic's
 * access changed to or from `public` or a public topic was deleted. Modules that publish public
 * projections of the space's content (posts: their content chains) follow it.
 */
export class SpaceVisibilityChanged {
  constructor(
    readonly spaceId: string,
    readonly topicId: string | null = null,
  ) {}
}
