import { Injectable } from '@nestjs/common';
import { RequestPrincipal } from '../../common/auth/request-authenticator';
import { notFound } from '../../common/errors/api-error';
import { LegacyMediaInfo, LegacyMintedMedia, LegacyMintMediaRequest } from '../dto/legacy-media.dto';
import { MediaPresenter } from './media.presenter';
import { MediaLifecycleService } from './media-lifecycle.service';
import { MediaUrlsService } from './media-urls.service';
import { UploadQuotaService } from './upload-quota.service';
import { contentDisposition } from '../domain/content-disposition';
import { formatEntityId } from '../../common/ids/entity-id';

/**
 * The legacy media routes (api-spec.md "Legacy namespaces", design.md §11 "Legacy routes"): images
 * only, owned by the caller and no space; only the uploader reads one (the 404 otherwise).
 */
@Injectable()
export class LegacyMediaService {
  constructor(
    private readonly lifecycle: MediaLifecycleService,
    private readonly presenter: MediaPresenter,
    private readonly urls: MediaUrlsService,
    private readonly quota: UploadQuotaService,
  ) {}

  async mint(principal: RequestPrincipal, body: LegacyMintMediaRequest): Promise<LegacyMintedMedia> {
    const media = await this.quota.mint({
      spaceId: null,
      uploaderDid: principal.did,
      filename: body.filename,
      contentType: body.contentType,
    });
    return {
      uploadUrl: this.urls.upload(media),
      contentDispositionHeader: contentDisposition(media.filename),
      media: {
        id: formatEntityId('media', media.id),
        filename: media.filename,
        contentType: media.contentType,
      },
    };
  }

  async info(principal: RequestPrincipal, mediaId: string): Promise<LegacyMediaInfo> {
    const media = await this.lifecycle.owned(mediaId, principal.did, null);
    if (!media) throw notFound();
    return this.presenter.legacyInfo(media);
  }
}
