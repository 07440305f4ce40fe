export { MediaObject } from './dto/media-object.dto';
export { attachmentTokensOf } from './domain/attachment-tokens';
export { MediaLookupService } from './services/media-lookup.service';
export { MediaRecordsModule } from './media-records.module';
export { MediaImportsService, MediaImportRefused } from './services/media-imports.service';
export type { ImportedImage, SpaceFileToStage, StagedSpaceFile } from './services/media-imports.service';
export {
  ImportArchivesService,
  ImportArchiveTooLarge,
  type StoredImportArchive,
} from './services/import-archives.service';
export { MintMediaRequest } from './dto/space-media.dto';
export { mediaKindOf } from './domain/media-types';
export { MediaErasureService, type MediaReferenceSource } from './services/media-erasure.service';
export { ExportedMediaFile, ExportedMediaRecord, MediaExportService } from './services/media-export.service';
export { StoredObjectMissing } from './services/storage/media-storage';
export { requestBody } from './domain/upload-streams';
