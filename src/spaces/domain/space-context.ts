import { invalidRequest } from '../../common/errors/api-error';
import type { SpaceMembership } from '../entities/space-membership.entity';
import type { Space } from '../entities/space.entity';
import { isAdminRole } from './space-rules';

/** A space as one caller reaches it. */
export interface SpaceContext {
  space: Space;
  /** The caller's membership row in any state, or null. */
  membership: SpaceMembership | null;
  did: string;
}

export const isActive = (context: SpaceContext): boolean => context.membership?.status === 'active';
export const isAdmin = (context: SpaceContext): boolean =>
  isActive(context) && isAdminRole(context.membership?.role);
export const roleOf = (context: SpaceContext): string | null =>
  isActive(context) ? context.membership!.role : null;

/** A body that repeats a path value must repeat it exactly (400 otherwise, nothing stored). */
export function assertRepeats(field: string, bodyValue: string | undefined, pathValue: string): void {
  if (bodyValue !== undefined && bodyValue !== pathValue) {
    throw invalidRequest('Invalid request', [
      { path: field, message: `${field} must equal the one in the path` },
    ]);
  }
}
