import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { LinkPreviewOutcome } from '../domain/link-preview-outcome';

/**
 * One row of `link_previews`, the link previews module's own table: what the last resolution of a
 * normalized URL found (docs/decisions/0150-link-previews-resolved-in-the-background.md). Written
 * only by the resolution job; read in one statement by `LinkPreviewsService.previewsOf`.
 */
@Entity({ name: 'link_previews' })
@Index('idx_link_previews_image_source', ['imageSourceUrl'])
@Index('idx_link_previews_favicon_source', ['faviconSourceUrl'])
export class LinkPreview {
  /** The normalized URL (`normalizeLinkUrl`): the key. */
  @PrimaryColumn({ type: 'varchar', length: 2048 })
  url: string;

  /** Where the redirects ended, or the page's `og:url` / `<link rel=canonical>`. */
  @Column({ name: 'canonical_url', type: 'varchar', length: 2048, nullable: true })
  canonicalUrl: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  title: string | null;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  description: string | null;

  @Column({ name: 'site_name', type: 'varchar', length: 200, nullable: true })
  siteName: string | null;

  /** A ready public image of the media module (its uuid), stored from the page's og:image. */
  @Column({ name: 'image_media_id', type: 'uuid', nullable: true })
  imageMediaId: string | null;

  /** Idem, from the page's icon. */
  @Column({ name: 'favicon_media_id', type: 'uuid', nullable: true })
  faviconMediaId: string | null;

  /**
   * Where the image and the favicon were fetched from: another page naming the same image (a
   * site's favicon, its default og:image) reuses the media instead of storing it again.
   */
  @Column({ name: 'image_source_url', type: 'varchar', length: 2048, nullable: true })
  imageSourceUrl: string | null;

  @Column({ name: 'favicon_source_url', type: 'varchar', length: 2048, nullable: true })
  faviconSourceUrl: string | null;

  @Column({ type: 'varchar', length: 16 })
  outcome: LinkPreviewOutcome;

  /** Why it was not `ok` (refused or failed), for operators. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  reason: string | null;

  @Column({ name: 'fetched_at', type: 'timestamptz', precision: 3 })
  fetchedAt: Date;

  /** After this the next read or write queues a refresh (LINK_PREVIEW_TTL_SECONDS, shorter when not ok). */
  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt: Date;

  /** Resolutions of this URL so far. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;
}
