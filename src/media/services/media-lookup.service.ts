import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { formatEntityId, parseEntityId } from '../../common/ids/entity-id';
import { invalidRequest, ValidationDetail } from '../../common/errors/api-error';
import { MediaObject } from '../dto/media-object.dto';
import { Media } from '../entities/media.entity';
import { MediaRepository } from '../media.repository';
import { MediaPresenter } from './media.presenter';
import { MediaUrlsService } from './media-urls.service';

/** A media id as a request named it, and where (the `details` path of a refusal). */
export interface MediaReference {
  path: string;
  mediaId: string;
  /** Only an image will do (`attachment://` tokens of a post place images). */
  image?: boolean;
}

/** Who attaches media, and where: the writer's own ready uploads of that space (design.md §11 "Use"). */
export interface AttachmentUse {
  spaceId: string;
  uploaderDid: string;
}

/**
 * What other modules know of media (design.md §11 "Use"): whether ids may be used for an
 * attachment or an avatar, header or cover, and the Media objects or image URLs of many ids at
 * once (one query however many). Nobody else reads the media table; a record holds media ids,
 * never copies of media.
 */
@Injectable()
export class MediaLookupService {
  constructor(
    private readonly repository: MediaRepository,
    private readonly presenter: MediaPresenter,
    private readonly urls: MediaUrlsService,
  ) {}

  /**
   * Attachments and `attachment://` tokens: `ready` media of the space uploaded by the writer.
   * Answers their uuids in the order given; anything else is a 400 with a detail per bad id.
   */
  async attachable(references: MediaReference[], use: AttachmentUse): Promise<string[]> {
    const rows = await this.rowsOf(references);
    const details: ValidationDetail[] = [];
    for (const reference of references) {
      const media = rows.get(reference.mediaId);
      const refusal =
        !media || media.uploaderDid !== use.uploaderDid
          ? 'is not one of your uploads'
          : media.spaceId !== use.spaceId
            ? 'was uploaded to another space'
            : media.state !== 'ready'
              ? `is not ready (${media.state})`
              : reference.image && media.kind !== 'image'
                ? 'is not an image'
                : null;
      if (refusal) details.push({ path: reference.path, message: `${reference.mediaId} ${refusal}` });
    }
    if (details.length > 0) throw invalidRequest('Invalid media', details);
    return references.map((reference) => rows.get(reference.mediaId)!.id);
  }

  /**
   * Avatars, headers, backgrounds and covers: `ready` images uploaded by the caller (legacy
   * uploads or v1 ones of any space). Answers their uuids in order; anything else is a 400.
   */
  async ownImages(references: MediaReference[], callerDid: string): Promise<string[]> {
    const { ids, details } = await this.checkOwnImages(references, callerDid);
    if (details.length > 0) throw invalidRequest('Invalid media', details);
    return ids;
  }

  /**
   * `ownImages` for a write that checks other members too: the refusals as details (to report
   * with its own) instead of a 400; `ids` holds the uuids when there are none.
   */
  async checkOwnImages(
    references: MediaReference[],
    callerDid: string,
  ): Promise<{ ids: string[]; details: ValidationDetail[] }> {
    const rows = await this.rowsOf(references);
    const details: ValidationDetail[] = [];
    for (const reference of references) {
      const media = rows.get(reference.mediaId);
      const refusal =
        !media || media.uploaderDid !== callerDid
          ? 'is not one of your uploads'
          : media.state !== 'ready'
            ? `is not ready (${media.state})`
            : media.kind !== 'image'
              ? 'is not an image'
              : null;
      if (refusal) details.push({ path: reference.path, message: `${reference.mediaId} ${refusal}` });
    }
    const ids = details.length > 0 ? [] : references.map((reference) => rows.get(reference.mediaId)!.id);
    return { ids, details };
  }

  /** The one image a field names (null clears it, undefined leaves it): its uuid. */
  async ownImage(path: string, mediaId: string | null | undefined, callerDid: string) {
    if (mediaId === undefined || mediaId === null) return mediaId;
    const [id] = await this.ownImages([{ path, mediaId }], callerDid);
    return id;
  }

  /**
   * The Media objects of `ready` media by uuid (signed URLs for audio, video and files, all
   * signed until the same instant), in one query; ids of media that are not ready are missing.
   */
  async objects(
    ids: Iterable<string | null | undefined>,
    runner?: EntityManager,
  ): Promise<Map<string, MediaObject>> {
    const objects = new Map<string, MediaObject>();
    for (const media of await this.readyRows(ids, runner))
      objects.set(media.id, this.presenter.object(media));
    return objects;
  }

  /** The permanent public URLs of `ready` images by uuid, in one query. */
  async imageUrls(
    ids: Iterable<string | null | undefined>,
    runner?: EntityManager,
  ): Promise<Map<string, string>> {
    const urls = new Map<string, string>();
    for (const media of await this.readyRows(ids, runner)) {
      if (media.kind === 'image') urls.set(media.id, this.urls.cdn(media));
    }
    return urls;
  }

  /** The public image objects of `ready` images by uuid (covers: never signed), in one query. */
  async imageObjects(ids: Iterable<string | null | undefined>): Promise<Map<string, MediaObject>> {
    const objects = new Map<string, MediaObject>();
    for (const media of await this.readyRows(ids)) {
      if (media.kind === 'image') objects.set(media.id, this.presenter.object(media));
    }
    return objects;
  }

  /** The public image object of one ready image (a cover), or null. */
  async imageObject(id: string | null): Promise<MediaObject | null> {
    return id ? ((await this.imageObjects([id])).get(id) ?? null) : null;
  }

  /**
   * How many uploads of a space are ready (`mediaUploadCountSummary`): its own, plus the images
   * it shows (`alsoShown`: avatar, header) when they were uploaded elsewhere (a legacy upload).
   */
  countOfSpace(spaceId: string, alsoShown: (string | null)[] = []): Promise<number> {
    const shown = alsoShown.filter((id): id is string => !!id);
    return this.repository.readyCountOfSpace(spaceId, shown);
  }

  /**
   * Bytes of uploads the space holds in storage (docs/decisions/0114-media-upload-quota.md): the original bytes of its media
   * from upload until dropped, kept with each media write (`media_space_usage`); derived files
   * (posters, image variants) and legacy uploads (no space) are not counted.
   */
  storedBytesOfSpace(spaceId: string): Promise<number> {
    return this.repository.storedBytesOfSpace(spaceId);
  }

  /** The rows the references name, by wire id (malformed ids are simply missing). */
  private async rowsOf(references: MediaReference[]): Promise<Map<string, Media>> {
    const uuids = [
      ...new Set(references.map((r) => parseEntityId('media', r.mediaId)).filter((id): id is string => !!id)),
    ];
    const rows = await this.repository.byIds(uuids);
    return new Map(rows.map((media) => [formatEntityId('media', media.id), media]));
  }

  private async readyRows(
    ids: Iterable<string | null | undefined>,
    runner?: EntityManager,
  ): Promise<Media[]> {
    const uuids = [...new Set([...ids].filter((id): id is string => !!id))];
    return this.repository.readyByIds(uuids, runner);
  }
}
