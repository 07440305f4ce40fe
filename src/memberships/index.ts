export { GroupMembershipLookup } from './group-membership-lookup';
export { MembershipsModule } from './memberships.module';
