import { Injectable } from '@nestjs/common';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { ApiError, invalidRequest, notFound } from '../../common/errors/api-error';
import { SpaceGrantAccessService, SpaceWriter } from '../../spaces';
import { MediaStatusResponse, MintedMedia, MintMediaRequest } from '../dto/space-media.dto';
import { MediaPresenter } from './media.presenter';
import { MediaLifecycleService } from './media-lifecycle.service';
import { MEDIA_TYPES } from '../domain/media-types';
import { MediaUrlsService } from './media-urls.service';
import { UploadQuotaService } from './upload-quota.service';

/**
 * The v1 media routes (design.md §11 "v1 routes"): a member mints an upload in a space, with a
 * grant holding `write:posts` or `write:comments` (and `read:posts`) for that space, and polls
 * its status. Only the uploader sees a media: anyone else's, or one of another space, is the 404.
 */
@Injectable()
export class SpaceMediaService {
  constructor(
    private readonly grants: SpaceGrantAccessService,
    private readonly lifecycle: MediaLifecycleService,
    private readonly presenter: MediaPresenter,
    private readonly urls: MediaUrlsService,
    private readonly quota: UploadQuotaService,
  ) {}

  async mint(principal: RequestPrincipal, spaceRef: string, body: MintMediaRequest): Promise<MintedMedia> {
    const writer = await this.writer(principal, spaceRef);
    const kind = MEDIA_TYPES[body.contentType].kind;
    const limit = this.quota.uploadLimit(kind);
    if (body.contentLength !== undefined && body.contentLength > limit) {
      throw invalidRequest('Invalid request', [
        {
          path: 'contentLength',
          message: `contentLength must be at most ${limit} bytes for ${kind} uploads`,
        },
      ]);
    }
    const media = await this.quota.mint({
      spaceId: writer.space.id,
      uploaderDid: writer.did,
      filename: body.filename,
      contentType: body.contentType,
      declaredLength: body.contentLength,
      alt: body.alt,
    });
    return {
      media: this.presenter.object(media),
      uploadUrl: this.urls.upload(media),
      uploadHeaders: { 'Content-Type': media.contentType },
    };
  }

  /**
   * Only the uploader sees a media (design.md §11): a caller refused as a writer of the space (a
   * non-member of a public space included) gets the constant 404 too, never the mint's 403
   * (docs/decisions/0113-media-status-and-no-store.md).
   */
  async status(principal: RequestPrincipal, spaceRef: string, mediaId: string): Promise<MediaStatusResponse> {
    const writer = await this.writer(principal, spaceRef).catch((error: unknown) => {
      throw error instanceof ApiError && error.getStatus() === 403 ? notFound() : error;
    });
    const media = await this.lifecycle.owned(mediaId, writer.did, writer.space.id);
    if (!media) throw notFound();
    return { media: this.presenter.object(media), status: media.state };
  }

  /**
   * The space as the caller writes to it (api-spec.md "Authentication" item 8: 403 on a public
   * space, the 404 on any other), with either write scope beside `read:posts`.
   */
  private async writer(principal: RequestPrincipal, spaceRef: string): Promise<SpaceWriter> {
    try {
      return await this.grants.forWrite(principal, spaceRef, ['write:posts', 'read:posts']);
    } catch (error) {
      // Refused for write:posts (403, or the 404 of a space hidden from this grant): the answer is
      // write:comments' (the same refusal when that is missing too).
      if (!(error instanceof ApiError) || ![403, 404].includes(error.getStatus())) throw error;
      return this.grants.forWrite(principal, spaceRef, ['write:comments', 'read:posts']);
    }
  }
}
