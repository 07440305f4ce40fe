import { Injectable, Logger } from '@nestjs/common';

/** What changed: a whole space's public visibility, or one topic's access (or its deletion). */
export type VisibilityChange = { spaceId: string; topicId?: string };
export type VisibilityFollower = (change: VisibilityChange) => Promise<void>;

/**
 * Tells the modules that publish public projections of a space's content (posts: their content
 * chains) that what is public there may have changed, so they publish or retract in step. The
 * admin write awaits its followers: a topic made private answers only once its posts' public
 * documents are retracted. A follower's failure is logged, never fails the admin write.
 */
@Injectable()
export class SpaceVisibility {
  private readonly logger = new Logger(SpaceVisibility.name);
  private readonly followers: VisibilityFollower[] = [];

  follow(follower: VisibilityFollower): void {
    this.followers.push(follower);
  }

  async changed(change: VisibilityChange): Promise<void> {
    await Promise.all(
      this.followers.map((follower) =>
        follower(change).catch((error: unknown) =>
          this.logger.warn(`visibility change of space ${change.spaceId} not followed: ${String(error)}`),
        ),
      ),
    );
  }
}
