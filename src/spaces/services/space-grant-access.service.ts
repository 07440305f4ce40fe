import { Injectable } from '@nestjs/common';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { Scope } from '../../common/auth/route-access';
import { forbidden, notFound } from '../../common/errors/api-error';
import { grantCoversSpace } from '../../protocol';
import { SpaceView, TopicView } from '../domain/space-views';
import { SpaceDirectoryService } from './space-directory.service';
import { MemberRole } from '../domain/space-rules';

/**
 * How a caller reads a space: `member` (an active member through a covering grant), `visitor` (a
 * signed-in person whose grant covers the space and who never was a member: reads what any
 * signed-in visitor may, api-spec.md reason `signIn`), or `anonymous` (everyone else, former
 * members and grants not covering the space included: item 6's anonymous projection).
 */
export type SpaceReadView =
  | { kind: 'anonymous'; space: SpaceView }
  | { kind: 'visitor'; space: SpaceView; did: string }
  | { kind: 'member'; space: SpaceView; did: string; role: MemberRole };

export interface SpaceWriter {
  space: SpaceView;
  did: string;
  role: MemberRole;
}

/**
 * The credential rules of api-spec.md "Authentication" for space-scoped routes (posts, comments,
 * upvotes, media), in one place:
 * - item 6: a grant that does not cover the space, or covers it for someone no longer an active
 *   member, reads exactly the anonymous projection (never 403);
 * - item 7: a space without a public profile resolves only for a covering grant of an active member;
 *   everyone else, a broken or revoked credential included, gets the 404 of a missing space;
 * - item 8: a write on a public space by a grant not covering it, or by a non-member, is 403; on a
 *   space without a public profile both are that same 404.
 * A bare identity proof covers every space for its own signer; a credential covers the spaces its
 * attenuations name with the scope. (Broken credentials never reach here: the guard drops them.)
 */
@Injectable()
export class SpaceGrantAccessService {
  constructor(private readonly directory: SpaceDirectoryService) {}

  async forRead(
    principal: RequestPrincipal | null | undefined,
    reference: string,
    scope: Scope = 'read:posts',
  ): Promise<SpaceReadView> {
    const space = await this.directory.findByReference(reference);
    if (!space) throw notFound();
    const membership =
      principal && this.covers(principal, space, scope)
        ? await this.directory.membershipOf(space.id, principal.did)
        : undefined;
    if (principal && membership?.status === 'active') {
      return { kind: 'member', space, did: principal.did, role: membership.role };
    }
    if (!space.isPublic) throw notFound();
    if (principal && (membership === null || membership?.status === 'invited')) {
      return { kind: 'visitor', space, did: principal.did };
    }
    return { kind: 'anonymous', space };
  }

  /** `scopes`: every one must cover this space (writes to posts also need `read:posts` there). */
  async forWrite(
    principal: RequestPrincipal,
    reference: string,
    scopes: Scope | Scope[],
  ): Promise<SpaceWriter> {
    const required = Array.isArray(scopes) ? scopes : [scopes];
    const { writer } = await this.forWriteInTopic(principal, reference, required, null);
    return writer;
  }

  /**
   * `forWrite` and the writer's live topic `topicId` (null when the space has no such live topic,
   * or none is asked for) resolved in one query with the space and the writer's membership.
   */
  async forWriteInTopic(
    principal: RequestPrincipal,
    reference: string,
    scopes: Scope[],
    topicId: string | null,
  ): Promise<{ writer: SpaceWriter; topic: TopicView | null }> {
    const found = await this.directory.findForWrite(reference, principal.did, topicId);
    if (!found) throw notFound();
    const { space, membership, topic } = found;
    const covered = scopes.every((scope) => this.covers(principal, space, scope));
    const role = covered && membership?.status === 'active' ? membership.role : null;
    return { writer: writerOf(principal, space, role), topic };
  }

  private covers(principal: RequestPrincipal, space: SpaceView, scope: Scope): boolean {
    return !principal.credential || grantCoversSpace(principal.credential, space.did, scope);
  }
}

/** The writer of an active member (`role`), else item 8: 403 on a public space, else its 404. */
function writerOf(principal: RequestPrincipal, space: SpaceView, role: MemberRole | null): SpaceWriter {
  if (role) return { space, did: principal.did, role };
  if (!space.isPublic) throw notFound();
  throw forbidden('The grant does not cover this space, or the caller is not a member');
}
