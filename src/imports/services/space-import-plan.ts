import { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { ApiError } from '../../common/errors/api-error';
import { ArchiveRejected, type ReadArchive } from '../../exports';
import { attachmentTokensOf, mediaKindOf, MintMediaRequest } from '../../media';
import { EventRequest } from '../../events';
import { CreatePostRequest } from '../../posts';
import { ProductRequest, ReleaseRequest } from '../../store';
import {
  CreateSpaceRequest,
  LEGACY_JOIN_MODES,
  PageRequest,
  PublicConfigRequest,
  SiteRequest,
  TopicRequest,
  UpdateSpaceRequest,
} from '../../spaces';

/**
 * What an import writes, built from a read archive and checked by the routes' own validation before
 * the first write (docs/decisions/0221-space-import-a-durable-job-through-the-owning-modules.md):
 * a request the owner could have sent to each route, in the order the job sends them.
 */
export interface SpaceImportPlan {
  create: CreateSpaceRequest;
  /**
   * The files to copy (docs/decisions/0231-a-space-import-copies-its-media.md), each with its id
   * and path in the archive and its mint, checked as the upload route checks one.
   */
  media: PlannedMedia[];
  /** The space's images by their archive ids; null when it has none the archive holds. */
  images: UpdateSpaceRequest | null;
  site: SiteRequest | null;
  /** Null when the space stays as created: private and closed. */
  publicConfig: PublicConfigRequest | null;
  /** Each topic with its id in the archive (posts name it). */
  topics: { archiveId: string; request: TopicRequest }[];
  pages: PageRequest[];
  /** Oldest first, so that the listings' orders are the source's; `topic` is the archive's id. */
  posts: CreatePostRequest[];
  /**
   * The store and the events (docs/decisions/0232-space-import-events-and-the-store.md), in the
   * archive's order; product ids (of releases and tickets) and covers are the archive's.
   */
  products: { archiveId: string; request: ProductRequest }[];
  releases: ReleaseRequest[];
  events: EventRequest[];
}

interface ArchivedProduct {
  id: string;
  slug: string;
  name: string;
  description?: string | null;
  coverId: string | null;
  sortOrder?: number;
  prices: {
    type: string;
    currency: string;
    amount: number;
    suggestedAmount?: number;
    interval?: string;
    archived: boolean;
  }[];
  isSoldOut?: boolean;
  purchasable?: boolean;
  published: boolean;
}
interface ArchivedRelease {
  slug: string;
  title: string;
  description?: string | null;
  coverId: string | null;
  credits: { name: string; role?: string | null; did?: string | null }[];
  productIds: string[];
  published: boolean;
}
/** Every member of an event's record the route takes back (the others are ids and times). */
const EVENT_FIELDS = [
  'title',
  'description',
  'location',
  'type',
  'mode',
  'url',
  'isAllDay',
  'startsAt',
  'endsAt',
  'timeZone',
  'startDate',
  'endDate',
  'rrule',
  'requiresTicket',
  'visibility',
] as const;
type ArchivedEvent = Record<(typeof EVENT_FIELDS)[number], unknown> & {
  coverId: string | null;
  ticketProductIds?: string[];
};

export interface PlannedMedia {
  archiveId: string;
  path: string;
  /** Its index in media.json, to name it in a refusal. */
  index: number;
  mint: MintMediaRequest;
}

interface ArchivedMedia {
  id: string;
  filename: string;
  contentType: string;
  alt?: string | null;
  size: number | null;
  path: string;
}

interface ArchivedSpace {
  avatarId?: string | null;
  bannerId?: string | null;
  backgroundId?: string | null;
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
  coverId: string | null;
  sortOrder: number;
  enabled: boolean;
}
interface ArchivedPost {
  id: string;
  topicId: string;
  title: string | null;
  body: string;
  attachmentIds: string[];
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
  const media: PlannedMedia[] = [];
  const kinds = new Map<string, string>();
  for (const [index, record] of ((files.get('media.json') as ArchivedMedia[] | undefined) ?? []).entries()) {
    const where = `media.json/${index}`;
    const mint = await check(
      MintMediaRequest,
      {
        filename: record.filename,
        contentType: record.contentType,
        ...(record.size !== null ? { contentLength: record.size } : {}),
        ...(record.alt ? { alt: record.alt } : {}),
      },
      where,
    );
    if (kinds.has(record.id)) throw new ArchiveRejected(`${where}: ${record.id} appears twice`);
    if (media.some((planned) => planned.path === record.path)) {
      throw new ArchiveRejected(`${where}: ${record.path} is named twice`);
    }
    const kind = mediaKindOf(mint.contentType)!;
    kinds.set(record.id, kind);
    // Every kind is copied: audio and video are probed as they are stored (record 0231).
    media.push({ archiveId: record.id, path: record.path, index, mint });
  }
  /**
   * An attachment or an inline image must be a copied file of the archive (a post's or page's
   * media are uploads to its space, so a complete archive holds them): anything else is refused.
   */
  const attached = (id: string, where: string, image: boolean): void => {
    const kind = kinds.get(id);
    const refusal =
      kind === undefined ? 'is not in media.json' : image && kind !== 'image' ? 'is not an image' : null;
    if (refusal) throw new ArchiveRejected(`${where}: ${id} ${refusal}`);
  };
  /**
   * An avatar, header, background or cover may be an upload to another space or a legacy one, not
   * in the archive: then it is left out. One the archive lists must be an image.
   */
  const image = (id: string | null | undefined, where: string): string | undefined => {
    if (!id || !kinds.has(id)) return undefined;
    attached(id, where, true);
    return id;
  };
  const space = files.get('space.json') as ArchivedSpace;
  const imageFields = {
    ...(image(space.avatarId, 'space.json') ? { avatarId: space.avatarId! } : {}),
    ...(image(space.bannerId, 'space.json') ? { bannerId: space.bannerId! } : {}),
    ...(image(space.backgroundId, 'space.json') ? { backgroundId: space.backgroundId! } : {}),
  };
  const images =
    Object.keys(imageFields).length > 0 ? await check(UpdateSpaceRequest, imageFields, 'space.json') : null;
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
    const where = `pages.json/${index}`;
    for (const id of attachmentTokensOf(page.body)) attached(id, where, true);
    const coverId = image(page.coverId, where);
    const fields = {
      title: page.title,
      slug: page.slug,
      body: page.body,
      ...(coverId ? { coverId } : {}),
      sortOrder: page.sortOrder,
      enabled: page.enabled,
    };
    pages.push(await check(PageRequest, fields, where));
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
    const where = `posts.json/${index}`;
    for (const id of post.attachmentIds) attached(id, where, false);
    for (const id of attachmentTokensOf(post.body)) attached(id, where, true);
    const fields = {
      topic: post.topicId,
      body: post.body,
      ...(post.title !== null ? { title: post.title } : {}),
      ...(post.attachmentIds.length > 0 ? { attachments: post.attachmentIds } : {}),
    };
    posts.push(await check(CreatePostRequest, fields, where));
  }
  const products: SpaceImportPlan['products'] = [];
  for (const [index, product] of (
    (files.get('products.json') as ArchivedProduct[] | undefined) ?? []
  ).entries()) {
    const where = `products.json/${index}`;
    const coverId = image(product.coverId, where);
    const fields = {
      name: product.name,
      slug: product.slug,
      ...(product.description !== undefined ? { description: product.description } : {}),
      ...(coverId ? { coverId } : {}),
      ...(product.sortOrder !== undefined ? { sortOrder: product.sortOrder } : {}),
      // New prices: their ids are the new product's.
      prices: product.prices.map(({ type, currency, amount, suggestedAmount, interval, archived }) => ({
        type,
        currency,
        amount,
        ...(suggestedAmount !== undefined ? { suggestedAmount } : {}),
        ...(interval !== undefined ? { interval } : {}),
        archived,
      })),
      published: product.published,
      ...(product.isSoldOut !== undefined ? { soldOut: product.isSoldOut } : {}),
      ...(product.purchasable !== undefined ? { purchasable: product.purchasable } : {}),
    };
    products.push({ archiveId: product.id, request: await check(ProductRequest, fields, where) });
  }
  const productIds = new Set(products.map((product) => product.archiveId));
  const ofStore = (ids: string[], where: string) => {
    for (const id of ids) {
      if (!productIds.has(id)) throw new ArchiveRejected(`${where}: ${id} is not in products.json`);
    }
    return ids;
  };
  const releases: ReleaseRequest[] = [];
  for (const [index, release] of (
    (files.get('releases.json') as ArchivedRelease[] | undefined) ?? []
  ).entries()) {
    const where = `releases.json/${index}`;
    const coverId = image(release.coverId, where);
    const fields = {
      title: release.title,
      slug: release.slug,
      ...(release.description !== undefined ? { description: release.description } : {}),
      ...(coverId ? { coverId } : {}),
      credits: release.credits.map((credit) => ({
        name: credit.name,
        role: credit.role,
        ...(credit.did ? { did: credit.did } : {}),
      })),
      productIds: ofStore(release.productIds, where),
      published: release.published,
    };
    releases.push(await check(ReleaseRequest, fields, where));
  }
  const events: EventRequest[] = [];
  for (const [index, event] of ((files.get('events.json') as ArchivedEvent[] | undefined) ?? []).entries()) {
    const where = `events.json/${index}`;
    const coverId = image(event.coverId, where);
    const fields: Record<string, unknown> = {};
    for (const field of EVENT_FIELDS) if (event[field] !== undefined) fields[field] = event[field];
    if (coverId) fields.coverId = coverId;
    if (event.ticketProductIds) fields.ticketProductIds = ofStore(event.ticketProductIds, where);
    events.push(await check(EventRequest, fields, where));
  }
  return { create, media, images, site, publicConfig, topics, pages, posts, products, releases, events };
}
