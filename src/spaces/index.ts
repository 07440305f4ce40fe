export { isUniqueViolation } from './repositories/db-errors';
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
} from './events/membership.events';
export { SpaceVisibilityChanged } from './events/visibility.events';
export { SpaceGrantAccessService, SpaceReadView, SpaceWriter } from './services/space-grant-access.service';
export { MembershipWritesService } from './services/membership-writes.service';
export { memberCountSummary } from './services/public-space-records.presenter';
export { assertRepeats, isAdmin } from './domain/space-context';
export { SpaceAccessService } from './services/space-access.service';
export { DomainFetcherService, FetchedDocument } from './services/domain-fetcher.service';
export { SpaceCountersService } from './services/space-counters.service';
export { SpaceDirectoryService } from './services/space-directory.service';
export { SpaceMembersService } from './services/space-members.service';
export { SpacePagesService } from './services/space-pages.service';
export { SpaceSiteService } from './services/space-site.service';
export { SpaceTopicsService } from './services/space-topics.service';
export { PageRequest, SiteRequest, TopicRequest } from './dto/site-requests.dto';
export { SpaceExportService } from './services/space-export.service';
export { PageAdminRecord, TopicAdminRecord } from './dto/public-space-records.dto';
export { PublicPageItem } from './dto/public-space-records.dto';
export {
  ActiveMembership,
  ExportedMembership,
  SpaceMembershipReadsService,
} from './services/space-membership-reads.service';
export {
  APPLICATION_STATUSES,
  ApplicationStatus,
  DID_PATTERN,
  JOIN_MODE_OVERRIDES,
  LEGACY_JOIN_MODES,
  JoinModeOverride,
  LIMITS,
  effectiveJoinMode,
} from './domain/space-rules';
export { SpaceView, StoredApplicationQuestion, TopicView } from './domain/space-views';
export { SpacesModule } from './spaces.module';
export { SpacesService } from './services/spaces.service';
export const PUBLISHED_VIEWS = [
  'live_spaces',
  'space_member_standings',
  'active_space_members',
  'live_space_topics',
  'discoverable_spaces',
  'searchable_pages',
] as const;
