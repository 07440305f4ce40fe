export { isUniqueViolation } from './db-errors';
export { SpaceCard } from './dto/public-space-records.dto';
export {
  ApplicationQuestionRecord,
  BanPage,
  BanRecord,
  DomainStatusRecord,
  JoinResultRecord,
  MemberPage,
  MemberRecord,
  SpaceRecord,
  ViewerRecord,
} from './dto/space-records.dto';
export {
  BanRequest,
  ChangeRoleRequest,
  ClaimDomainRequest,
  CreateSpaceRequest,
  PersonalStatusRequest,
  Present,
  PublicConfigRequest,
  SpaceIdBody,
  UpdateSpaceRequest,
} from './dto/space-requests.dto';
export {
  MemberBanned,
  MemberJoined,
  MemberKicked,
  MemberRoleChanged,
  MembershipEnded,
  SpaceDeleted,
} from './events/membership-events';
export { SpaceVisibilityChanged } from './events/visibility-events';
export { SpaceGrantAccess, SpaceReadView, SpaceWriter } from './grant-access.service';
export { MembershipWrites } from './membership-writes';
export { memberCountSummary } from './public-records';
export { SpaceAccess, assertRepeats, isAdmin } from './space-access';
export { SpaceCounters } from './space-counters';
export { SpaceDirectory } from './space-directory';
export { SpaceMembersService } from './space-members.service';
export { ActiveMembership, SpaceMembershipReads } from './space-membership-reads';
export {
  APPLICATION_STATUSES,
  ApplicationStatus,
  DID_PATTERN,
  JOIN_MODE_OVERRIDES,
  JoinModeOverride,
  LIMITS,
  effectiveJoinMode,
} from './space-rules';
export { SpaceView, StoredApplicationQuestion, TopicView } from './space-views';
export { SpacesModule } from './spaces.module';
export { SpacesService } from './spaces.service';
export const PUBLISHED_VIEWS = [
  'live_spaces',
  'space_member_standings',
  'active_space_members',
  'live_space_topics',
  'discoverable_spaces',
] as const;
