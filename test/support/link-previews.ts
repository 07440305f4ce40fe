import { INestApplication } from '@nestjs/common';
import { normalizeLinkUrl } from '../../src/link-previews';
import { RecentLinkPreviews } from '../../src/link-previews/domain/recent-link-previews';
import { LinkPreviewsRepository } from '../../src/link-previews/link-previews.repository';

/** What a resolution found of one page; omitted fields are null. */
export interface ResolvedPage {
  title?: string | null;
  description?: string | null;
  siteName?: string | null;
  /** Uuids of ready images of ours (as a resolution stores a page's image and favicon). */
  imageMediaId?: string | null;
  faviconMediaId?: string | null;
}

/**
 * Records a URL as resolved, as the link-previews resolution job would, through the booted app's
 * repository (and drops what the app's memory kept of it, as a resolution does): the read side's
 * tests show cards without fetching anything.
 */
export async function recordResolved(app: INestApplication, url: string, page: ResolvedPage): Promise<void> {
  const key = normalizeLinkUrl(url);
  if (key === null) throw new Error(`${url} is never resolved`);
  const now = new Date();
  await app.get(LinkPreviewsRepository).upsert({
    url: key,
    canonicalUrl: key,
    title: page.title ?? null,
    description: page.description ?? null,
    siteName: page.siteName ?? null,
    imageMediaId: page.imageMediaId ?? null,
    faviconMediaId: page.faviconMediaId ?? null,
    imageSourceUrl: null,
    faviconSourceUrl: null,
    outcome: 'ok',
    reason: null,
    fetchedAt: now,
    expiresAt: new Date(now.getTime() + 24 * 3600_000),
  });
  app.get(RecentLinkPreviews).forget(key);
}
