import { Injectable } from '@nestjs/common';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { conflict, notFound } from '../../common/errors/api-error';
import { newUuid, parseEntityId } from '../../common/ids/entity-id';
import { CursorCodec } from '../../common/pagination/cursor-codec';
import { closeKeysetPage, KeysetColumn, openKeysetPage } from '../../common/pagination/keyset';
import { Page } from '../../common/pagination/page';
import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { isUniqueViolation } from '../repositories/db-errors';
import { PageAdminRecord, PublicPage, PublicPageItem } from '../dto/public-space-records.dto';
import { PageRequest } from '../dto/site-requests.dto';
import { SpacePage } from '../entities/space-page.entity';
import { SpacePagesRepository } from '../repositories/space-pages.repository';
import { mentionedIdentities, renderMentions } from '../domain/page-mentions';
import { toPageAdminRecord, toPublicPage, toPublicPageItem } from './public-space-records.presenter';
import { SpaceAccessService } from './space-access.service';
import { MediaLookupService, attachmentTokensOf } from '../../media';
import { SpaceDirectoryService } from './space-directory.service';
import { SLUG_PATTERN, slugFromTitle } from '../domain/space-rules';

const PAGE_ORDER: KeysetColumn[] = [
  { expression: 'sort_order', direction: 'ASC' },
  { expression: 'id', direction: 'ASC' },
];
const pageKey = (page: SpacePage) => [page.sortOrder, page.id];
/** Tries at a free generated slug (`title`, `title-2`, …) before giving up with 409. */
const SLUG_ATTEMPTS = 20;

/**
 * Pages of a space's site: the admins' writes (design.md §9) and the anonymous reads, which show
 * only enabled pages of spaces with a public profile.
 */
@Injectable()
export class SpacePagesService {
  constructor(
    private readonly pages: SpacePagesRepository,
    private readonly directory: SpaceDirectoryService,
    private readonly access: SpaceAccessService,
    private readonly cursors: CursorCodec,
    private readonly media: MediaLookupService,
  ) {}

  async listPublic(reference: string, query: PaginationQueryDto): Promise<Page<PublicPageItem>> {
    const space = await this.directory.findPublicByReference(reference);
    if (!space) throw notFound();
    const keyset = {
      listing: 'public-space-pages',
      columns: PAGE_ORDER,
      keyOf: pageKey,
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.pages.enabledPage(space.id, seek), keyset);
    return {
      items: page.rows.map(toPublicPageItem),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /**
   * The list items (as `GET /v1/spaces/{space}/pages` shows them) of the enabled pages among
   * `pageIds` (uuid), by id, for other modules (search results); the caller shows only those of
   * spaces with a public profile. One statement, none for none.
   */
  async publicItemsOf(pageIds: readonly string[]): Promise<Map<string, PublicPageItem>> {
    const unique = [...new Set(pageIds)];
    if (unique.length === 0) return new Map();
    const pages = await this.pages.enabledByIds(unique);
    return new Map(pages.map((page) => [page.id, toPublicPageItem(page)]));
  }

  /** An enabled page by id or slug; disabled, unknown, malformed and other spaces' pages are 404. */
  async getPublic(reference: string, pageReference: string): Promise<PublicPage> {
    const space = await this.directory.findPublicByReference(reference);
    if (!space) throw notFound();
    const id = parseEntityId('page', pageReference);
    const page = id
      ? await this.pages.findInSpace(space.id, id)
      : SLUG_PATTERN.test(pageReference)
        ? await this.pages.findBySlug(space.id, pageReference)
        : null;
    if (!page?.enabled) throw notFound();
    const tokens = attachmentTokensOf(page.body).map((mediaId) => parseEntityId('media', mediaId)!);
    const [body, media] = await Promise.all([
      this.publicBody(page.body),
      this.media.objects([page.coverMediaId, ...tokens]),
    ]);
    const cover = page.coverMediaId ? media.get(page.coverMediaId) : undefined;
    return {
      ...toPublicPage(page),
      body,
      ...(cover ? { cover } : {}),
      bodyMedia: tokens.flatMap((id) => media.get(id) ?? []),
    };
  }

  /**
   * What a page's cover and body tokens name (design.md §11 "Use"): the cover a ready image of
   * the caller, each `attachment://` token a ready media the caller uploaded to this space.
   */
  private async checkMedia(
    principal: RequestPrincipal,
    spaceId: string,
    request: PageRequest,
  ): Promise<string | null | undefined> {
    const tokens = attachmentTokensOf(request.body);
    await this.media.attachable(
      tokens.map((mediaId) => ({ path: 'body', mediaId })),
      { spaceId, uploaderDid: principal.did },
    );
    return this.media.ownImage('coverId', request.coverId, principal.did);
  }

  /**
   * The body as anyone may read it: mentions of people without a public profile become `@name`
   * text (api-spec.md "Page"). Read from the users module's published view `public_users`: that
   * module imports this one, so it cannot be injected here.
   */
  private async publicBody(body: string): Promise<string> {
    const mentioned = mentionedIdentities(body);
    if (mentioned.length === 0) return body;
    return renderMentions(body, await this.pages.publicUsers(mentioned));
  }

  /** Every page of the space, disabled ones included (admins). */
  async listForAdmin(
    principal: RequestPrincipal,
    pathId: string,
    query: PaginationQueryDto,
  ): Promise<Page<PageAdminRecord>> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const keyset = {
      listing: 'admin-space-pages',
      columns: PAGE_ORDER,
      keyOf: pageKey,
      page: query,
      cursors: this.cursors,
    };
    const seek = openKeysetPage(keyset);
    const page = closeKeysetPage(seek, await this.pages.allPage(space.id, seek), keyset);
    return {
      items: page.rows.map(toPageAdminRecord),
      nextCursor: page.nextCursor,
      previousCursor: page.previousCursor,
    };
  }

  /** A new page; without a slug one is made from the title (`-2`, `-3`, … when taken). */
  async create(principal: RequestPrincipal, pathId: string, request: PageRequest): Promise<PageAdminRecord> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const coverMediaId = await this.checkMedia(principal, space.id, request);
    const page = this.pages.create({
      id: newUuid(),
      spaceId: space.id,
      title: request.title,
      body: request.body,
      coverMediaId: coverMediaId ?? null,
      sortOrder: request.sortOrder ?? 0,
      enabled: request.enabled ?? true,
    });
    if (request.slug !== undefined) {
      page.slug = request.slug;
      await this.saveUnique(page);
    } else {
      await this.saveWithGeneratedSlug(page, slugFromTitle(request.title));
    }
    return toPageAdminRecord(await this.pages.get(page.id));
  }

  /** Replaces title and body; slug, cover, sortOrder and enabled when sent (null clears the cover). */
  async update(
    principal: RequestPrincipal,
    pathId: string,
    pageId: string,
    request: PageRequest,
  ): Promise<PageAdminRecord> {
    const page = await this.adminPage(principal, pathId, pageId);
    const coverMediaId = await this.checkMedia(principal, page.spaceId, request);
    page.title = request.title;
    page.body = request.body;
    if (request.slug !== undefined) page.slug = request.slug;
    if (coverMediaId !== undefined) page.coverMediaId = coverMediaId;
    if (request.sortOrder !== undefined) page.sortOrder = request.sortOrder;
    if (request.enabled !== undefined) page.enabled = request.enabled;
    await this.saveUnique(page);
    return toPageAdminRecord(await this.pages.get(page.id));
  }

  async remove(principal: RequestPrincipal, pathId: string, pageId: string): Promise<void> {
    const page = await this.adminPage(principal, pathId, pageId);
    await this.pages.delete(page.id);
  }

  private async adminPage(principal: RequestPrincipal, pathId: string, pageId: string): Promise<SpacePage> {
    const { space } = await this.access.resolveAdmin(pathId, principal.did);
    const id = parseEntityId('page', pageId);
    const page = id ? await this.pages.findInSpace(space.id, id) : null;
    if (!page) throw notFound();
    return page;
  }

  private async saveWithGeneratedSlug(page: SpacePage, base: string): Promise<void> {
    for (let attempt = 1; attempt <= SLUG_ATTEMPTS; attempt++) {
      page.slug = attempt === 1 ? base : `${base}-${attempt}`;
      if (await this.pages.slugTaken(page.spaceId, page.slug)) continue;
      try {
        await this.pages.insert(page);
        return;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw conflict('No free slug for this title: send one');
  }

  private async saveUnique(page: SpacePage): Promise<void> {
    try {
      await this.pages.save(page);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Slug taken');
      throw error;
    }
  }
}
