import { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { ArchiveRejected, type ReadArchive } from '../../exports';
import { CreatePostRequest } from '../../posts';
import {
  CreateSpaceRequest,
  LEGACY_JOIN_MODES,
  PageRequest,
  PublicConfigRequest,
  SiteRequest,
  TopicRequest,
} from '../../spaces';

/**
 * What an import writes, built from a read archive and checked by the routes' own validation before
 * the first write (docs/decisions/0221-space-import-a-durable-job-through-the-owning-modules.md):
 * a request the owner could have sent to each route, in the order the job sends them.
 */
export interface SpaceImportPlan {
  create: CreateSpaceRequest;
  site: SiteRequest | null;
  /** Null when the space stays as created: private and closed. */
  publicConfig: PublicConfigRequest | null;
  /** Each topic with its id in the archive (posts name it). */
  topics: { archiveId: string; request: TopicRequest }[];
  pages: PageRequest[];
  /** Oldest first, so that the listings' orders are the source's; `topic` is the archive's id. */
  posts: CreatePostRequest[];
}

interface ArchivedSpace {
  displayName: string;
  description?: string | null;
  isPublic: boolean;
  joinMode: string;
  siteMode?: string;
  subscribeEnabled?: boolean;
  category?: string | null;
  discoveryOptIn?: boolean;
  links: { url: string; label?: string | null; description?: string | null }[];
}
interface ArchivedTopic {
  id: string;
  name: string;
  description: string | null;
  access: string | { groups: string[] };
}
interface ArchivedPage {
  slug: string;
  title: string;
  body: string;
  sortOrder: number;
  enabled: boolean;
}
interface ArchivedPost {
  id: string;
  topicId: string;
  title: string | null;
  body: string;
  publishedAt: string;
}

/** Builds the plan; ArchiveRejected names the file and the first rule a record breaks. */
export async function planOf(files: ReadArchive, pipe: PipeTransform): Promise<SpaceImportPlan> {
  const check = async <T>(type: new () => T, value: object, where: string): Promise<T> => {
    try {
      return (await pipe.transform(value, { type: 'body', metatype: type } as ArgumentMetadata)) as T;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const details = (error.extra.details as { message: string }[] | undefined) ?? [];
      throw new ArchiveRejected(`${where}: ${details[0]?.message ?? error.message}`);
    }
  };
  const space = files.get('space.json') as ArchivedSpace;
  const create = await check(
    CreateSpaceRequest,
    { displayName: space.displayName, ...(space.description ? { description: space.description } : {}) },
    'space.json',
  );
  const siteFields = {
    ...(space.siteMode !== undefined ? { siteMode: space.siteMode } : {}),
    ...(space.subscribeEnabled !== undefined ? { subscribeEnabled: space.subscribeEnabled } : {}),
    ...(space.category !== undefined ? { category: space.category } : {}),
    ...(space.discoveryOptIn !== undefined ? { discoveryOptIn: space.discoveryOptIn } : {}),
    links: space.links.map((link) => ({
      url: link.url,
      ...(link.label ? { label: link.label } : {}),
      ...(link.description ? { description: link.description } : {}),
    })),
  };
  const site = await check(SiteRequest, siteFields, 'space.json');
  // Paid and allowlist spaces need the store's and the allowlist's data, not imported yet: closed.
  const joinMode = (LEGACY_JOIN_MODES as readonly string[]).includes(space.joinMode)
    ? space.joinMode
    : 'closed';
  const publicConfig =
    space.isPublic || joinMode !== 'closed'
      ? await check(PublicConfigRequest, { isPublic: space.isPublic, joinMode }, 'space.json')
      : null;
  const topics: SpaceImportPlan['topics'] = [];
  for (const [index, topic] of (files.get('topics.json') as ArchivedTopic[]).entries()) {
    // Groups are not in the archive: a group's topic (and its posts) waits for their import.
    if (typeof topic.access !== 'string') continue;
    const request = await check(
      TopicRequest,
      { name: topic.name, description: topic.description, access: topic.access },
      `topics.json/${index}`,
    );
    topics.push({ archiveId: topic.id, request });
  }
  const pages: PageRequest[] = [];
  for (const [index, page] of (files.get('pages.json') as ArchivedPage[]).entries()) {
    // Covers are media, not imported yet.
    const fields = {
      title: page.title,
      slug: page.slug,
      body: page.body,
      sortOrder: page.sortOrder,
      enabled: page.enabled,
    };
    pages.push(await check(PageRequest, fields, `pages.json/${index}`));
  }
  const imported = new Set(topics.map((topic) => topic.archiveId));
  const archived = (files.get('posts.json') as ArchivedPost[])
    .map((post, index) => ({ post, index }))
    .filter(({ post }) => imported.has(post.topicId))
    .sort(
      (a, b) => a.post.publishedAt.localeCompare(b.post.publishedAt) || a.post.id.localeCompare(b.post.id),
    );
  const posts: CreatePostRequest[] = [];
  for (const { post, index } of archived) {
    // Attachments are media, not imported yet.
    const fields = {
      topic: post.topicId,
      body: post.body,
      ...(post.title !== null ? { title: post.title } : {}),
    };
    posts.push(await check(CreatePostRequest, fields, `posts.json/${index}`));
  }
  return { create, site, publicConfig, topics, pages, posts };
}
