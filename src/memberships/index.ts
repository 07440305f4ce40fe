export { GroupMembershipErasureService } from './services/group-membership-erasure.service';
export { GroupMembershipLookupService } from './services/group-membership-lookup.service';
export { MembershipsModule } from './memberships.module';
export const PUBLISHED_VIEWS = ['space_group_ids', 'group_members'] as const;
