import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { defineStatements } from '../infrastructure/database/statements';
import type { LinkPreviewOutcome } from './domain/link-preview-outcome';
import { LinkPreview } from './entities/link-preview.entity';

/**
 * The link previews module's fixed SQL (docs/decisions/0131-a-repository-per-module.md), written to
 * docs/queries/link-previews.sql by `npm run build && npm run queries:write`.
 */
export const LINK_PREVIEWS_STATEMENTS = defineStatements('LinkPreviewsRepository', {
  /** The records of many normalized URLs ($1) at once. */
  byUrls:
    'SELECT url, canonical_url, title, description, site_name, image_media_id, favicon_media_id, image_source_url, favicon_source_url, outcome, reason, fetched_at, expires_at, attempts FROM link_previews WHERE url = ANY($1)',
  /** Media kept of these image URLs ($1) by records fetched since $2, newest first. */
  keptImages:
    'SELECT image_source_url AS source, image_media_id AS media_id, fetched_at FROM link_previews WHERE image_source_url = ANY($1) AND image_media_id IS NOT NULL AND fetched_at > $2 ' +
    'UNION ALL SELECT favicon_source_url AS source, favicon_media_id AS media_id, fetched_at FROM link_previews WHERE favicon_source_url = ANY($1) AND favicon_media_id IS NOT NULL AND fetched_at > $2 ORDER BY fetched_at DESC',
  /**
   * Which of these media ($1 uuid[]), each kept from the image URL beside it ($2), no record refers
   * to any more (as image or favicon). A media is only ever shared under its source URL, so the
   * source indexes find every record that could refer to it.
   */
  unreferenced:
    'SELECT kept.media_id FROM unnest($1::uuid[], $2::varchar[]) AS kept(media_id, source) ' +
    'WHERE NOT EXISTS (SELECT 1 FROM link_previews WHERE image_source_url = kept.source AND image_media_id = kept.media_id) ' +
    'AND NOT EXISTS (SELECT 1 FROM link_previews WHERE favicon_source_url = kept.source AND favicon_media_id = kept.media_id)',
  /** The result of one resolution: a new record, or the one of that URL replaced (attempts counted). */
  upsert:
    'INSERT INTO link_previews (url, canonical_url, title, description, site_name, image_media_id, favicon_media_id, image_source_url, favicon_source_url, outcome, reason, fetched_at, expires_at, attempts) VALUES ($1, $2, $3, $4, $5, $6, $7, $12, $13, $8, $9, $10, $11, 1) ' +
    'ON CONFLICT (url) DO UPDATE SET canonical_url = EXCLUDED.canonical_url, title = EXCLUDED.title, description = EXCLUDED.description, site_name = EXCLUDED.site_name, image_media_id = EXCLUDED.image_media_id, favicon_media_id = EXCLUDED.favicon_media_id, image_source_url = EXCLUDED.image_source_url, favicon_source_url = EXCLUDED.favicon_source_url, outcome = EXCLUDED.outcome, reason = EXCLUDED.reason, fetched_at = EXCLUDED.fetched_at, expires_at = EXCLUDED.expires_at, attempts = link_previews.attempts + 1',
});

interface LinkPreviewRow {
  url: string;
  canonical_url: string | null;
  title: string | null;
  description: string | null;
  site_name: string | null;
  image_media_id: string | null;
  favicon_media_id: string | null;
  image_source_url: string | null;
  favicon_source_url: string | null;
  outcome: LinkPreviewOutcome;
  reason: string | null;
  fetched_at: Date;
  expires_at: Date;
  attempts: number;
}

const linkPreviewOf = (row: LinkPreviewRow): LinkPreview => ({
  url: row.url,
  canonicalUrl: row.canonical_url,
  title: row.title,
  description: row.description,
  siteName: row.site_name,
  imageMediaId: row.image_media_id,
  faviconMediaId: row.favicon_media_id,
  imageSourceUrl: row.image_source_url,
  faviconSourceUrl: row.favicon_source_url,
  outcome: row.outcome,
  reason: row.reason,
  fetchedAt: row.fetched_at,
  expiresAt: row.expires_at,
  attempts: row.attempts,
});

/** What one resolution found, to record. */
export type ResolvedLinkPreview = Omit<LinkPreview, 'attempts'>;

/** Every statement on `link_previews`; methods take the caller's transaction as their last argument. */
@Injectable()
export class LinkPreviewsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The records of these normalized URLs (one statement, however many). */
  async byUrls(
    urls: readonly string[],
    runner: EntityManager = this.dataSource.manager,
  ): Promise<LinkPreview[]> {
    if (urls.length === 0) return [];
    const rows = await runner.query<LinkPreviewRow[]>(LINK_PREVIEWS_STATEMENTS.byUrls, [urls]);
    return rows.map(linkPreviewOf);
  }

  /** Records what a resolution found, replacing the URL's previous record. */
  async upsert(record: ResolvedLinkPreview, runner: EntityManager = this.dataSource.manager): Promise<void> {
    await runner.query(LINK_PREVIEWS_STATEMENTS.upsert, [
      record.url,
      record.canonicalUrl,
      record.title,
      record.description,
      record.siteName,
      record.imageMediaId,
      record.faviconMediaId,
      record.outcome,
      record.reason,
      record.fetchedAt,
      record.expiresAt,
      record.imageSourceUrl,
      record.faviconSourceUrl,
    ]);
  }

  /** The media kept of each of these image URLs by a record fetched since `since` (the newest). */
  async keptImages(
    sources: readonly string[],
    since: Date,
    runner: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, string>> {
    const kept = new Map<string, string>();
    if (sources.length === 0) return kept;
    const rows = await runner.query<{ source: string; media_id: string }[]>(
      LINK_PREVIEWS_STATEMENTS.keptImages,
      [sources, since],
    );
    for (const row of rows) if (!kept.has(row.source)) kept.set(row.source, row.media_id);
    return kept;
  }

  /** Which of these media (each with the image URL it was kept from) no record refers to any more. */
  async unreferenced(
    kept: readonly { mediaId: string; source: string }[],
    runner: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    if (kept.length === 0) return [];
    const rows = await runner.query<{ media_id: string }[]>(LINK_PREVIEWS_STATEMENTS.unreferenced, [
      kept.map((k) => k.mediaId),
      kept.map((k) => k.source),
    ]);
    return rows.map((row) => row.media_id);
  }
}
