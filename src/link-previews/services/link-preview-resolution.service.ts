import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import {
  OutboundError,
  OutboundFetcher,
  OutboundResponse,
} from '../../infrastructure/outbound/outbound-fetcher';
import { Metrics } from '../../infrastructure/metrics/metrics';
import { MediaImportRefused, MediaImportsService } from '../../media';
import type { LinkPreviewOutcome } from '../domain/link-preview-outcome';
import { decodeHtml, pageMetadata } from '../domain/page-metadata';
import { RecentLinkPreviews } from '../domain/recent-link-previews';
import type { LinkPreview } from '../entities/link-preview.entity';
import { LinkPreviewsRepository, ResolvedLinkPreview } from '../link-previews.repository';

/** Bytes of a page read at most: its head is in the first ones (the rest is cut, not refused). */
export const PAGE_MAX_BYTES = 512 * 1024;
/** Bytes of an image (og:image, favicon) read at most: a larger one is not kept. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Redirects followed, each hop's address checked. */
export const MAX_REDIRECTS = 5;
/** Who the images are recorded as uploaded by. */
const IMAGE_OWNER = 'plat:link-previews';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/** An image URL short enough to record (and so to reuse), or null. */
const storable = (url: string | null): string | null => (url !== null && url.length <= 2048 ? url : null);

/** A failure worth another attempt: the network, a timeout, a 5xx, 408 or 429. */
class TransientFailure extends Error {}

/**
 * Resolves one normalized URL into its record (docs/decisions/0150-link-previews-resolved-in-the-background.md):
 * skips a fresh record, fetches the page through the guarded OutboundFetcher, reads its metadata,
 * keeps its image and favicon as media of ours, and upserts the record with its TTL. A transient
 * failure throws (the job is retried) until the last attempt, which records it as failed.
 */
@Injectable()
export class LinkPreviewResolutionService {
  private readonly logger = new Logger(LinkPreviewResolutionService.name);
  private readonly fetches;
  private readonly duration;

  constructor(
    private readonly repository: LinkPreviewsRepository,
    private readonly outbound: OutboundFetcher,
    private readonly images: MediaImportsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly recent: RecentLinkPreviews,
    metrics: Metrics,
  ) {
    this.fetches = metrics.counter(
      'plat_link_preview_fetches_total',
      'Link preview page fetches, by outcome',
      ['outcome'],
    );
    this.duration = metrics.histogram(
      'plat_link_preview_fetch_duration_seconds',
      'Time to fetch and read a link preview page (images included), by outcome',
      ['outcome'],
      [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    );
  }

  /** Resolves `url` (normalized) unless its record is fresh; `last`: no retry follows a failure. */
  async resolve(url: string, last = true): Promise<void> {
    if (!this.config.LINK_PREVIEWS_ENABLED) return;
    const [record] = await this.repository.byUrls([url]);
    if (record && record.expiresAt.getTime() > this.clock.now().getTime()) return;
    const started = process.hrtime.bigint();
    let outcome: LinkPreviewOutcome = 'failed';
    try {
      const resolved = await this.fetched(url, record);
      outcome = resolved.outcome;
      await this.recorded(resolved, record);
    } catch (error) {
      if (!(error instanceof TransientFailure)) throw error;
      if (!last) {
        this.count('retried', started);
        throw error;
      }
      await this.recorded(this.failure(url, 'failed', error.message), record);
    }
    this.count(outcome, started);
  }

  /**
   * Records a resolution, then releases the media the previous record kept that no record refers
   * to any more (its image or favicon changed or is gone): a refresh never leaves orphaned media
   * (docs/decisions/0152-link-preview-metadata.md).
   */
  private async recorded(resolved: ResolvedLinkPreview, previous: LinkPreview | undefined): Promise<void> {
    await this.repository.upsert(resolved);
    this.recent.forget(resolved.url);
    if (!previous) return;
    const kept = new Set([resolved.imageMediaId, resolved.faviconMediaId]);
    const dropped = [
      { mediaId: previous.imageMediaId, source: previous.imageSourceUrl },
      { mediaId: previous.faviconMediaId, source: previous.faviconSourceUrl },
    ].filter(
      (old): old is { mediaId: string; source: string } =>
        old.mediaId !== null && old.source !== null && !kept.has(old.mediaId),
    );
    if (dropped.length === 0) return;
    try {
      await this.images.releaseImported(await this.repository.unreferenced(dropped));
    } catch (error) {
      this.logger.warn(`media no longer used by ${resolved.url} not released: ${String(error)}`);
    }
  }

  private count(outcome: string, started: bigint): void {
    this.fetches.inc({ outcome });
    this.duration.observe({ outcome }, Number(process.hrtime.bigint() - started) / 1e9);
  }

  /** What the page gives, or a refusal / failure record; TransientFailure for what may pass. */
  private async fetched(url: string, previous: LinkPreview | undefined): Promise<ResolvedLinkPreview> {
    const host = new URL(url).hostname.toLowerCase();
    if (this.config.linkPreviewDenyHosts.some((denied) => host === denied || host.endsWith(`.${denied}`))) {
      return this.failure(url, 'refused', `${host} is on LINK_PREVIEW_DENY_HOSTS`);
    }
    let page: OutboundResponse;
    try {
      page = await this.outbound.get({
        url,
        maxBytes: PAGE_MAX_BYTES,
        overflow: 'truncate',
        timeoutMs: this.config.LINK_PREVIEW_TIMEOUT_MS,
        maxRedirects: MAX_REDIRECTS,
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
        contentTypes: (type) => HTML_TYPES.has(type),
        purpose: 'link-preview',
      });
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      if (error.failure === 'refused') return this.failure(url, 'refused', error.message);
      if (error.failure === 'unwanted_type') return this.failure(url, 'not_html', error.message);
      const transient =
        error.failure === 'network' ||
        (error.failure === 'status' &&
          (error.status! >= 500 || error.status === 408 || error.status === 429));
      if (transient) throw new TransientFailure(error.message);
      return this.failure(url, 'failed', error.message);
    }
    const metadata = pageMetadata(decodeHtml(page.body, page.charset), page.url);
    const now = this.clock.now();
    const ttlMs = this.config.LINK_PREVIEW_TTL_SECONDS * 1000;
    const imageSourceUrl = storable(metadata.imageUrl);
    const faviconSourceUrl = storable(metadata.faviconUrl);
    // The record's own image and favicon, their source URLs unchanged, are kept (a refresh imports
    // nothing again); so is a site's favicon or default image kept for another of its pages within a
    // TTL. Either only while the media still exists.
    const kept = await this.repository.keptImages(
      [imageSourceUrl, faviconSourceUrl].filter((source): source is string => source !== null),
      new Date(now.getTime() - ttlMs),
    );
    if (previous?.imageMediaId && previous.imageSourceUrl === imageSourceUrl && imageSourceUrl !== null) {
      kept.set(imageSourceUrl, previous.imageMediaId);
    }
    if (
      previous?.faviconMediaId &&
      previous.faviconSourceUrl === faviconSourceUrl &&
      faviconSourceUrl !== null
    ) {
      kept.set(faviconSourceUrl, previous.faviconMediaId);
    }
    const existing = kept.size > 0 ? await this.images.existing([...kept.values()]) : new Set<string>();
    const reused = (source: string | null): string | null => {
      const id = source === null ? undefined : kept.get(source);
      return id !== undefined && existing.has(id) ? id : null;
    };
    const [imageMediaId, faviconMediaId] = await Promise.all([
      reused(imageSourceUrl) ?? this.image(metadata.imageUrl, 'preview'),
      reused(faviconSourceUrl) ?? this.image(metadata.faviconUrl, 'favicon'),
    ]);
    return {
      url,
      canonicalUrl: metadata.canonicalUrl,
      title: metadata.title,
      description: metadata.description,
      siteName: metadata.siteName,
      imageMediaId,
      faviconMediaId,
      imageSourceUrl,
      faviconSourceUrl,
      outcome: 'ok',
      reason: null,
      fetchedAt: now,
      expiresAt: new Date(now.getTime() + ttlMs),
    };
  }

  /** An image of the page kept as a media of ours, or null (none, refused, failed: the card has no image). */
  private async image(url: string | null, name: string): Promise<string | null> {
    if (url === null) return null;
    try {
      const answer = await this.outbound.get({
        url,
        maxBytes: IMAGE_MAX_BYTES,
        overflow: 'fail',
        timeoutMs: this.config.LINK_PREVIEW_TIMEOUT_MS,
        maxRedirects: MAX_REDIRECTS,
        accept: 'image/png,image/jpeg,image/gif,image/webp,image/*;q=0.8',
        contentTypes: (type) => type.startsWith('image/') || type === 'application/octet-stream',
        purpose: 'link-preview',
      });
      return await this.images.importImage({
        bytes: answer.body,
        filename: name,
        ownerDid: IMAGE_OWNER,
        maxBytes: IMAGE_MAX_BYTES,
      });
    } catch (error) {
      if (!(error instanceof OutboundError || error instanceof MediaImportRefused)) throw error;
      this.logger.debug(`image ${url} not kept: ${error.message}`);
      return null;
    }
  }

  private failure(url: string, outcome: LinkPreviewOutcome, reason: string): ResolvedLinkPreview {
    const now = this.clock.now();
    return {
      url,
      canonicalUrl: null,
      title: null,
      description: null,
      siteName: null,
      imageMediaId: null,
      faviconMediaId: null,
      imageSourceUrl: null,
      faviconSourceUrl: null,
      outcome,
      reason: reason.slice(0, 300),
      fetchedAt: now,
      expiresAt: new Date(now.getTime() + this.config.LINK_PREVIEW_NEGATIVE_TTL_SECONDS * 1000),
    };
  }
}
