import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import { JobQueue } from '../../infrastructure/jobs/job-queue';
import { MediaLookupService } from '../../media';
import { EMPTY_LINK_PREVIEW, LinkPreviewView } from '../domain/link-preview-view';
import { normalizeLinkUrl } from '../domain/normalize-link-url';
import { RecentLinkPreviews } from '../domain/recent-link-previews';
import { RESOLVE_LINK_PREVIEW, ResolveLinkPreviewJob } from '../events/link-previews.subscriber';
import { LinkPreviewsRepository } from '../link-previews.repository';

/** A read queues the resolution of one URL at most this often per process. */
const READ_REQUEUE_MS = 60_000;
/** URLs remembered for that; past it the memory starts over (at worst a URL is queued again). */
const READ_ASKS_KEPT = 10_000;

/**
 * What other modules know of link previews (docs/decisions/0150-link-previews-resolved-in-the-background.md):
 * the views of many URLs at once, read from the table only, and a way to queue their resolution.
 */
@Injectable()
export class LinkPreviewsService {
  private readonly logger = new Logger(LinkPreviewsService.name);
  /** When a read last queued each URL (normalized), by this process. */
  private readonly askedByReads = new Map<string, number>();

  constructor(
    private readonly repository: LinkPreviewsRepository,
    private readonly media: MediaLookupService,
    private readonly jobs: JobQueue,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly recent: RecentLinkPreviews,
  ) {}

  /**
   * Views of many URLs in ONE statement (plus one batched media lookup when a record has images),
   * keyed by the URL exactly as given; none when this process read them all lately
   * (RecentLinkPreviews). Never fetches. URLs missing or past their TTL are queued for resolution
   * after the read (fire and forget, no statement on the read's path).
   */
  async previewsOf(urls: readonly string[]): Promise<Map<string, LinkPreviewView>> {
    const views = new Map<string, LinkPreviewView>();
    const keys = new Map<string, string>();
    const now = this.clock.now().getTime();
    for (const url of urls) {
      const key = this.recent.keyOf(url);
      const kept = key === null ? undefined : this.recent.get(key, now);
      views.set(url, kept ?? EMPTY_LINK_PREVIEW);
      if (key !== null && kept === undefined) keys.set(url, key);
    }
    if (keys.size === 0) return views;
    const records = new Map(
      (await this.repository.byUrls([...new Set(keys.values())])).map((r) => [r.url, r]),
    );
    const mediaIds = [...records.values()].flatMap((r) => [r.imageMediaId, r.faviconMediaId]);
    const images = mediaIds.some((id) => id !== null) ? await this.media.imageUrls(mediaIds) : new Map();
    const stale: string[] = [];
    for (const [url, key] of keys) {
      const record = records.get(key);
      if (!record || record.expiresAt.getTime() <= now) stale.push(url);
      if (!record) continue;
      const view: LinkPreviewView = {
        title: record.title,
        description: record.description,
        siteName: record.siteName,
        imageUrl: (record.imageMediaId && images.get(record.imageMediaId)) ?? null,
        faviconUrl: (record.faviconMediaId && images.get(record.faviconMediaId)) ?? null,
      };
      views.set(url, view);
      this.recent.keep(key, view, record.expiresAt.getTime(), now);
    }
    if (stale.length > 0) this.resolveSoon(stale.filter((url) => this.firstAskSince(keys.get(url)!, now)));
    return views;
  }

  /**
   * Whether a read has not asked for this URL's resolution in the last READ_REQUEUE_MS: a hot post
   * with unresolved links queues each once a minute per process, not once per read. Writes always
   * queue (resolveSoon).
   */
  private firstAskSince(key: string, now: number): boolean {
    const asked = this.askedByReads.get(key);
    if (asked !== undefined && now - asked < READ_REQUEUE_MS) return false;
    if (this.askedByReads.size >= READ_ASKS_KEPT) this.askedByReads.clear();
    this.askedByReads.set(key, now);
    return true;
  }

  /**
   * Queue resolution of these URLs (after the caller's commit). No database statement, never
   * throws, returns at once: the caller's statement count does not change.
   */
  resolveSoon(urls: readonly string[]): void {
    try {
      if (!this.config.LINK_PREVIEWS_ENABLED) return;
      const keys = new Set(urls.map(normalizeLinkUrl).filter((key): key is string => key !== null));
      for (const url of keys) {
        // One job per URL, its id derived from the URL: a URL queued twice (two posts, a read and a
        // write) before it runs is fetched once; the job skips a record that is fresh by then.
        const jobId = `lp-${createHash('sha256').update(url).digest('hex').slice(0, 40)}`;
        this.jobs
          .add<ResolveLinkPreviewJob>(RESOLVE_LINK_PREVIEW, { url }, { jobId, replaceFailed: true })
          .catch((error: unknown) => this.logger.warn(`link preview of ${url} not queued: ${String(error)}`));
      }
    } catch (error) {
      this.logger.warn(`link previews not queued: ${String(error)}`);
    }
  }
}
