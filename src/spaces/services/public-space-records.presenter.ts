import { ResolvedLinkPage, toProfileLinkDto } from '../../common/dto/profile-link.dto';
import { formatEntityId } from '../../common/ids/entity-id';
import { wordedSummary } from '../../common/summaries/worded-summary';
import {
  PageAdminRecord,
  PublicPage,
  PublicPageItem,
  PublicTopic,
  SpaceCard,
  TopicAdminRecord,
} from '../dto/public-space-records.dto';
import { SpacePage } from '../entities/space-page.entity';
import { SpaceTopic } from '../entities/space-topic.entity';
import { Space } from '../entities/space.entity';

const iso = (date: Date) => date.toISOString();

export const memberCountSummary = (space: Pick<Space, 'memberCount'>): string =>
  wordedSummary(space.memberCount, 'members');

/**
 * The discovery card (api-spec.md "Space discovery item"): no protocol block, nothing exact;
 * `pages` what is resolved of its links' pages, by URL.
 */
export function toSpaceCard(
  space: Space,
  avatarUrl: string | null,
  pages: ReadonlyMap<string, ResolvedLinkPage>,
): SpaceCard {
  return {
    id: formatEntityId('space', space.id),
    did: space.did,
    domain: space.domain,
    displayName: space.displayName,
    description: space.description,
    avatarUrl,
    links: space.links.map((link) => toProfileLinkDto(link, pages.get(link.url))),
    memberCountSummary: memberCountSummary(space),
    verifiedDomain: space.verifiedDomain,
    ...(space.category ? { category: space.category } : {}),
  };
}

export const toPublicTopic = (topic: SpaceTopic): PublicTopic => ({
  id: formatEntityId('topic', topic.id),
  name: topic.name,
  description: topic.description,
});

export const toTopicAdminRecord = (topic: SpaceTopic): TopicAdminRecord => ({
  id: formatEntityId('topic', topic.id),
  spaceId: formatEntityId('space', topic.spaceId),
  name: topic.name,
  description: topic.description,
  access:
    topic.accessKind === 'groups'
      ? { groups: topic.accessGroupIds.map((uuid) => formatEntityId('group', uuid)) }
      : topic.accessKind,
  createdAt: iso(topic.createdAt),
  updatedAt: iso(topic.updatedAt),
});

export const toPublicPageItem = (page: SpacePage): PublicPageItem => ({
  id: formatEntityId('page', page.id),
  slug: page.slug,
  title: page.title,
  sortOrder: page.sortOrder,
  updatedAt: iso(page.updatedAt),
});

export const toPublicPage = (page: SpacePage): Omit<PublicPage, 'bodyMedia'> => ({
  ...toPublicPageItem(page),
  body: page.body,
});

export const toPageAdminRecord = (page: SpacePage): PageAdminRecord => ({
  id: formatEntityId('page', page.id),
  spaceId: formatEntityId('space', page.spaceId),
  slug: page.slug,
  title: page.title,
  body: page.body,
  coverId: page.coverMediaId ? formatEntityId('media', page.coverMediaId) : null,
  sortOrder: page.sortOrder,
  enabled: page.enabled,
  createdAt: iso(page.createdAt),
  updatedAt: iso(page.updatedAt),
});
