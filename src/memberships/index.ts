export { GroupMembershipLookup } from './services/group-membership-lookup';
export { MembershipsModule } from './memberships.module';
