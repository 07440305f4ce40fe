import type { JoinMode, MemberRole, SiteMode, TopicAccessKind } from './space-rules';

/**
 * What other modules read of a space: the spaces module's read API. Its entities, repositories and
 * tables stay inside the module (other modules join the views `live_spaces`,
 * `space_member_standings` and `live_space_topics` where a join is needed for speed).
 */
export interface SpaceView {
  id: string;
  did: string;
  domain: string;
  displayName: string | null;
  description: string | null;
  avatarMediaId: string | null;
  headerMediaId: string | null;
  joinMode: JoinMode;
  isPublic: boolean;
  siteMode: SiteMode;
  subscribeEnabled: boolean;
  category: string | null;
  memberCount: number;
  applicationQuestions: StoredApplicationQuestion[];
  lastActivityAt: Date | null;
  deletedAt: Date | null;
  createdAt: Date;
}

/** A question the space asks applicants (legacy application settings). */
export interface StoredApplicationQuestion {
  question: string;
  isRequired: boolean;
}

/** A topic of a space as other modules read it (its `accessKind` decides who reads its posts). */
export interface TopicView {
  id: string;
  spaceId: string;
  name: string;
  description: string | null;
  accessKind: TopicAccessKind;
  accessGroupIds: string[];
  deletedAt: Date | null;
}

/** A live space where someone is an active member, with their role there. */
export interface MemberSpace {
  space: SpaceView;
  role: MemberRole;
}
