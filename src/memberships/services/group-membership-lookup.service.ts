import { Injectable } from '@nestjs/common';
import { MembershipsRepository } from '../memberships.repository';

/** Which groups a person is in, for other modules (topic access by groups, design.md §9). */
@Injectable()
export class GroupMembershipLookupService {
  constructor(private readonly memberships: MembershipsRepository) {}

  /**
   * Whether `did` is in at least one of `groupIds` (uuids) of the space. Callers check that the
   * person is an active member of the space first: group rows end with the membership in its
   * transaction, but a row added while it was ending lasts until the person is admitted again.
   */
  async inAnyGroup(spaceId: string, did: string, groupIds: readonly string[]): Promise<boolean> {
    if (groupIds.length === 0) return false;
    return this.memberships.inAnyGroup(spaceId, did, [...groupIds]);
  }
}
