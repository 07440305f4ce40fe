export { MediaObject } from './dto/media-object.dto';
export { attachmentTokensOf } from './records/attachment-tokens';
export { MediaLookup } from './records/media-lookup';
export { MediaRecordsModule } from './records/media-records.module';
